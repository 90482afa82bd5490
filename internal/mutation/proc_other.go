//go:build !unix

package main

import "os/exec"

// ownGroup leaves cmd as it is: cancellation kills the process only.
func ownGroup(*exec.Cmd) {}
