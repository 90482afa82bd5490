//go:build !race

package schedule

// raceEnabled is true when the race detector is on.
const raceEnabled = false
