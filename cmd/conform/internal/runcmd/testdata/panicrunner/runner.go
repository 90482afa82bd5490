// Package panicrunner is a runner that trips the simulator the one way no
// bubble can recover: a goroutine of its own panics, ending the test
// binary. conform run must still name the property, the check and the
// seed, and the replay must reproduce it.
package panicrunner

import "github.com/allocsim/allocsim/impl/interfaces"

// New builds no alloc runner: its goroutine panics first.
func New(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	go func() { panic("panicrunner: a goroutine of the runner's own panics") }()
	select {}
}
