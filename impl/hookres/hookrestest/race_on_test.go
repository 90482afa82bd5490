//go:build race

package hookrestest

const raceEnabled = true
