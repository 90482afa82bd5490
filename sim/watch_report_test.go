package sim

import (
	"testing"

	"github.com/allocsim/allocsim/internal/watchdog"
	"github.com/shoenig/test/must"
)

// TestSuiteStallIsNotTheRunners: a bubble kept busy only by the suite's
// own code (a linearizability search on the world's goroutine) is the
// suite's stall, never charged to the runner as DET-3; a runner's
// goroutine spinning, or one waiting for a lock, is the runner's.
func TestSuiteStallIsNotTheRunners(t *testing.T) {
	suite := watchdog.Goroutine{ID: 7, Status: "running, synctest bubble 1", Stack: "goroutine 7 [running, synctest bubble 1]:\n" +
		"github.com/allocsim/allocsim/linearizability.CheckServerView(...)\n\t/x/linearizability/check.go:10 +0x1\n" +
		"github.com/allocsim/allocsim/properties/internal/syncing.checkServerView(...)\n\t/x/serverview.go:3 +0x1"}
	runner := watchdog.Goroutine{ID: 8, Status: "running, synctest bubble 1", Stack: "goroutine 8 [running, synctest bubble 1]:\n" +
		"example.com/myrunner.(*Runner).spin(...)\n\t/y/runner.go:5 +0x1"}
	lock := watchdog.Goroutine{ID: 9, Status: "sync.Mutex.Lock, synctest bubble 1", Stack: "goroutine 9 [sync.Mutex.Lock, synctest bubble 1]:\n" +
		"sync.(*Mutex).Lock(...)\n\t/z/mutex.go:1 +0x1"}
	must.True(t, suiteStall(groupGoroutines([]watchdog.Goroutine{suite})))
	must.False(t, suiteStall(groupGoroutines([]watchdog.Goroutine{suite, runner})))
	must.False(t, suiteStall(groupGoroutines([]watchdog.Goroutine{suite, lock})))
	must.False(t, suiteStall(groupGoroutines([]watchdog.Goroutine{runner})))
	must.False(t, suiteStall(groupGoroutines(nil)))
}
