//go:build !race

package concurrent

// raceBuild is set when the race detector is on: a check then runs more
// lone runners side by side, for the detector to see more interleavings.
const raceBuild = false
