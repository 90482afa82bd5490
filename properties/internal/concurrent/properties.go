package concurrent

import (
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

// ID is the property's ID.
const ID = "DET-3/concurrent-use"

// Properties returns the package's property.
func Properties() []prop.Property {
	return []prop.Property{{
		ID:    ID,
		Specs: []string{"DET-3", "AR-1"},
		Doc: "Called from many goroutines at once, in real time, while allocs restart, update, stop and leave, the runner's " +
			"methods return well-formed results without panic or hang (interfaces.AllocRunner: every method is safe for " +
			"concurrent use), and once Client.Shutdown returned no port call of the client or its runners is in flight or " +
			"made (interfaces.Client); under -race the detector judges the runner's locking.",
		Profiles:   prop.Full | prop.ClientCommunication,
		Direct:     check,
		Situations: situations,
	}}
}

var situations = []prop.Situation{
	{Name: "port-call-at-shutdown", Doc: "a port call of the client or a runner is in flight as Client.Shutdown starts"},
	{Name: "calls-during-shutdown", Doc: "users call the runners while Client.Shutdown runs"},
	{Name: "window-closes-after-shutdown", Doc: "a scheduled task's window closes after Client.Shutdown returned (its pause gate's timer must be stopped: the task keeps running)"},
	{Name: "runner-end-0", Doc: "a lone runner's Shutdown races its Run"},
	{Name: "runner-end-1", Doc: "a lone runner's Destroy races its Run"},
	{Name: "runner-end-2", Doc: "a lone runner gets a stopped alloc, then Destroy, as its Run starts"},
	{Name: "runner-end-3", Doc: "a lone runner's Shutdown and Destroy race each other and its Run"},
}

// check is one check of f: rounds of a node client and of lone runners.
func check(_ *testing.T, f interfaces.Factory, seed uint64) prop.Outcome {
	var out prop.Outcome
	reach := func(name string) {
		if out.Reached == nil {
			out.Reached = map[string]bool{}
		}
		out.Reached[name] = true
	}
	for i := range rounds() {
		s := seed + uint64(i)*0x9e3779b97f4a7c15
		checkClient(f, s, &out, reach)
		if out.Failed() || out.Harness != nil {
			break
		}
		checkRunners(f, s, &out, reach)
		if out.Failed() || out.Harness != nil {
			break
		}
	}
	return out
}

// rounds is how many rounds a check runs: one, and 96 under -race, where
// the suite runs 2 checks a property and the detector needs many
// interleavings to see a race of a few instructions. 8 were too few: a
// kill landing between a task's start gate and its StartTask (a nil
// dereference, fixed with TaskRunner.abandon) took about 700 rounds to
// show, and a lock released early in the client's registry (Shutdown's
// read of the retiring runners) or its update buffer (a tick's
// snapshot), mutants the mutation report judges under -race, took 100
// to 500. At 96 a check takes about 6 s under -race.
func rounds() int {
	if raceBuild {
		return 96
	}
	return 1
}
