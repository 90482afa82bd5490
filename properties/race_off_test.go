//go:build !race

package properties_test

const raceEnabled = false
