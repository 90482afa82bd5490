package alloc

import (
	"strings"

	"github.com/allocsim/allocsim/impl/interfaces"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

// killPath follows AR-6's kill path: a task that got `Killing` while its
// run was live (a `Started` not yet followed by its `Terminated`) and
// whose driver task the runner then stopped (StopTask) took the kill
// path, which appends `Killed` once the exit is seen, right after that
// exit's `Terminated`. A run whose exit the runner saw before the kill
// reached it ends by itself (`Terminated`, no StopTask), and a task
// waiting in the gate or a restart delay has no live run (PAUSE-8):
// neither need `Killed`. Without it a runner that never appends `Killed`
// passes: the kill order and the Killing event are checked, not how the
// kill ends.
type killPath struct {
	live    map[taskKey]bool // a Started not yet followed by Terminated
	killing map[taskKey]bool // Killing appended while live, Killed not yet
	stopped map[taskKey]bool // and StopTask called since
}

func newKillPath() *killPath {
	return &killPath{live: map[taskKey]bool{}, killing: map[taskKey]bool{}, stopped: map[taskKey]bool{}}
}

// check reads the events appended at this instant and the driver calls
// made at it; it reports a task whose run the kill stopped and whose
// Terminated has no Killed after it within the instant (the kill path
// appends both as it sees the exit).
func (k *killPath) check(v *prop.View, evs []newEvent) {
	for _, ne := range evs {
		switch ne.Event.Type {
		case structs.TaskStarted:
			k.live[ne.Key] = true
		case structs.TaskKilling:
			if k.live[ne.Key] {
				k.killing[ne.Key] = true
			}
		}
	}
	for _, r := range driverOps(v) {
		if key := (taskKey{Alloc: r.Alloc, Task: r.Task}); drivers.Op(r.Op) == drivers.OpStop && k.killing[key] {
			k.stopped[key] = true
		}
	}
	awaiting := map[taskKey]bool{}
	for _, ne := range evs {
		switch ne.Event.Type {
		case structs.TaskTerminated:
			if k.killing[ne.Key] && k.stopped[ne.Key] {
				awaiting[ne.Key] = true
			}
			k.live[ne.Key] = false
		case structs.TaskKilled:
			if k.stopped[ne.Key] {
				v.Reach("killed-after-stop")
			}
			delete(awaiting, ne.Key)
			k.killing[ne.Key], k.stopped[ne.Key] = false, false
		}
	}
	for _, key := range sortedKeys(awaiting) {
		v.Violatef(key.Alloc, key.Task, "events after the Terminated of a run the alloc's kill stopped ("+
			strings.Join(eventTypes(evs, key), ", ")+")", "no Killed",
			"Killed: AR-6's kill path appends it once the exit is seen")
		return
	}
}

// eventTypes lists the types of key's events among evs, in order.
func eventTypes(evs []newEvent, key taskKey) []string {
	var out []string
	for _, ne := range evs {
		if ne.Key == key {
			out = append(out, ne.Event.Type)
		}
	}
	return out
}

// checkRunReturned: an alloc whose every task is dead (client-terminal,
// AR-8) has nothing left to run: each task runner's loop ended (a
// poststop task's at its death; the others, waiting for an alloc restart,
// are released by the kill that follows the last death, AR-4's prekill
// "when all tasks finished"), postrun ran "after all TRs exit" (AR-4),
// and Run returned, closing WaitCh (AR-1); each loop persisted
// RunComplete as it ended. Without it a task runner that waits on after
// its task's death, so that Run never returns, passes (every task state
// is already final), and so does one that never persists RunComplete
// (only a later restore would tell).
//
// Conversely, a Run that returned ran every task runner's loop to its
// end, and a loop that was not shut down ends only with its task dead
// (AR-6 "after the loop ... dead"), a kill that finds the task waiting in
// a restart delay included. Without it a runner whose kill ends that wait
// as if shut down leaves the task pending forever.
func checkRunReturned(v *prop.View, history map[prop.TaskKey][]*structs.TaskEvent) {
	for _, a := range v.Allocs() {
		ar := v.World.AllocRunner(a.ID)
		if ar == nil {
			continue
		}
		if checkLoopsEndedDead(v, a, ar, history); v.Failed() {
			return
		}
		if !structs.ClientStatusTerminal(a.ClientStatus) {
			continue
		}
		select {
		case <-ar.WaitCh():
			v.Reach("run-returned")
		default:
			v.Violatef(a.ID, "", "AllocRunner.WaitCh() of an alloc "+a.ClientStatus+" (every task dead) at the run's end", "open",
				"closed: every task runner's loop ends once its task is dead and none may restart, then Run returns (AR-1, AR-4, AR-6)")
			return
		}
		// Each loop that ended persisted RunComplete (AR-6, STATE-2), so
		// that a restore runs only its stop hooks (STATE-4). A destroyed
		// alloc's bucket is gone: nothing to read.
		for _, name := range structs.SortedTaskNames(a.TaskStates) {
			ls, err := v.World.TaskLocalState(a.ID, name)
			if err == nil && ls != nil && !ls.RunComplete {
				v.Violatef(a.ID, name, "persisted local_state RunComplete once Run returned", false,
					"true: a task runner whose loop ended persists RunComplete (AR-6, STATE-2)")
				return
			}
		}
	}
}

// checkLoopsEndedDead reports a task not dead in an alloc whose Run
// returned, and reaches killed-in-restart-delay for a task whose Killing
// came while it waited in a restart delay (Restarting, no Started since).
func checkLoopsEndedDead(v *prop.View, a *structs.Allocation, ar interfaces.AllocRunner, history map[prop.TaskKey][]*structs.TaskEvent) {
	select {
	case <-ar.WaitCh():
	default:
		return
	}
	for _, name := range structs.SortedTaskNames(a.TaskStates) {
		ts := a.TaskStates[name]
		if ts == nil || ts.State == structs.TaskStateDead {
			continue
		}
		v.Violatef(a.ID, name, "task state once AllocRunner.Run returned (WaitCh closed), no shutdown", ts.State,
			"dead: a task runner's loop that is not shut down ends only with its task dead (AR-6), a kill during a restart delay included")
		return
	}
	for _, name := range structs.SortedTaskNames(a.TaskStates) {
		waiting := false
		for _, e := range history[prop.TaskKey{Alloc: a.ID, Task: name}] {
			switch e.Type {
			case structs.TaskRestarting:
				waiting = true
			case structs.TaskStarted:
				waiting = false
			case structs.TaskKilling:
				if waiting {
					v.Reach("killed-in-restart-delay")
				}
			}
		}
	}
}
