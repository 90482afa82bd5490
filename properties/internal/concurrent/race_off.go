//go:build !race

package concurrent

// raceBuild is set when the race detector is on: a check then runs more
// rounds (rounds), for the detector to see more interleavings.
const raceBuild = false
