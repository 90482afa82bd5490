//go:build !race

package hookrestest

const raceEnabled = false
