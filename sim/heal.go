package sim

import (
	"slices"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/trace"
)

// Heal ends the scenario's faults, for a liveness phase: per-call faults
// stop firing, a partition heals, a crashed client restarts at once and
// the timed faults not yet fired are dropped. The world then runs on
// fault-free (Advance, RunUntil). It reports the restart's error, if any.
func (w *World) Heal() error {
	w.inj.Heal()
	w.mu.Lock()
	w.agenda = slices.DeleteFunc(w.agenda, func(it agendaItem) bool { return it.rank == 0 })
	crashed := w.started && w.inc == nil && !w.closed
	w.jump = 0
	w.mu.Unlock()
	if w.net.Partitioned() {
		w.net.Heal()
	}
	w.emit(trace.KindFault, "healed", nil)
	var err error
	if crashed {
		// Like a scheduled restart, in a goroutine the world waits for:
		// restore's injected calls are held and released by settling.
		w.await(func() { err = w.Restart() }, "heal restart")
	}
	w.settle()
	return err
}

// ClientAllocs returns what the runners under test last pushed of each
// alloc (SYNC-1), sorted by ID, as copies without the job, to be read, not
// changed: an alloc not pushed again since the last call is the same copy
// (copying every alloc's task events at every instant a check reads them
// was a tenth of a check's CPU). Allocs of a crashed incarnation keep
// their last state until the next one pushes.
func (w *World) ClientAllocs() []*structs.Allocation {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := make([]string, 0, len(w.observed))
	for id := range w.observed {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]*structs.Allocation, 0, len(ids))
	for _, id := range ids {
		o := w.observed[id]
		if o.latest == nil {
			continue
		}
		if o.handedOf != o.latest {
			o.handed, o.handedOf = o.latest.CopySkipJobReusing(o.handed), o.latest
		}
		out = append(out, o.handed)
	}
	return out
}

// Do runs f as a world event at the current instant: in a goroutine of
// its own that the world waits for, advancing the clock while f needs it,
// then settles. A property acts on the runner this way (an Update handed
// straight to an alloc runner), so that what the action causes happens
// inside the world's instants (DET-1) and is observed before the clock
// moves on.
func (w *World) Do(f func()) {
	w.await(f, "suite action")
	w.settle()
}
