package sim

import (
	"slices"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/trace"
)

// observedAlloc is what the world knows of one alloc's client state: the
// latest state a runner pushed and the state
// last written to the trace.
type observedAlloc struct {
	latest *structs.Allocation
	// handed is the copy of handedOf ClientAllocs hands out, made at its
	// first call after latest changed (nil: none yet), sharing what is
	// unchanged with the copy it replaces.
	handed, handedOf *structs.Allocation
	dirty            bool
	traced           *structs.Allocation
	// stamps is what the DET-1 stamp check saw of it (stamps.go).
	stamps allocStamps
	// runner is the newest runner built for it (runners.go).
	runner interfaces.AllocRunner
}

// updaterTap wraps the StateUpdater a runner is given, so the world sees
// every alloc the runner computes (SYNC-1) before the client buffers it.
type updaterTap struct {
	w   *World
	inc *incarnation
	// started is the instant the incarnation started (the DET-1 stamp
	// check's bound for restored state).
	started time.Time
	next    interfaces.StateUpdater
}

var _ interfaces.StateUpdater = updaterTap{}

// AllocStateUpdated observes the push, then hands it on, logging the
// instants the client's updater was called and returned (synclog.go).
func (u updaterTap) AllocStateUpdated(a *structs.Allocation) {
	u.w.nudge()
	u.w.observe(u, a)
	id := ""
	if a != nil {
		id = a.ID
	}
	p := u.w.sync.pushBegin(u.inc, id, u.w.now())
	u.next.AllocStateUpdated(a)
	u.w.sync.pushEnd(p, u.w.now())
}

func (u updaterTap) PutAllocation(a *structs.Allocation) error { return u.next.PutAllocation(a) }

// runnerFactory wraps the runner factory under test with the tap: the
// client under test must build its alloc runners with the factory it is
// given (ClientOptions.AllocRunnerFactory), which is how the world sees
// what they compute. The plan's runner_build_failure makes a call fail
// instead, as a factory may (AR-3).
func (w *World) runnerFactory(inc *incarnation) interfaces.AllocRunnerFactory {
	f := w.cfg.Factory.NewAllocRunner
	started := w.clk.Now()
	return func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
		c := *cfg
		if c.StateUpdater != nil {
			c.StateUpdater = updaterTap{w: w, inc: inc, started: started, next: cfg.StateUpdater}
		}
		w.configs.put(c)
		var ar interfaces.AllocRunner
		var err error
		if c.Alloc != nil {
			err = w.inj.RunnerBuildFailure(c.Alloc.ID) // AR-3's factory error
		}
		if err == nil {
			ar, err = f(&c)
		}
		w.recordRunner(c.Alloc, ar, err)
		if err == nil && ar != nil && w.cfg.Hold.has(HoldPriority) {
			return priorityHold{AllocRunner: ar, w: w, inc: inc}, nil
		}
		return ar, err
	}
}

// observe records a pushed alloc of a live incarnation and checks its
// new stamps (DET-1, stamps.go); pushes of a crashed one are ignored, and
// any after its Shutdown returned are a leak.
func (w *World) observe(u updaterTap, a *structs.Allocation) {
	if a == nil {
		return
	}
	inc := u.inc
	if !inc.alive.Load() {
		if inc.down.Load() {
			w.violation("client incarnation %d pushed alloc %s after Shutdown returned", inc.n, a.ID)
		}
		return
	}
	now := w.now()
	w.mu.Lock()
	defer w.mu.Unlock()
	o := w.observed[a.ID]
	if o == nil {
		o = &observedAlloc{}
		w.observed[a.ID] = o
	}
	// The world never changes its copies, so the new one shares what is
	// unchanged since the last push with it.
	prev := o.latest
	c := a.CopySkipJobReusing(prev)
	if !o.dirty {
		w.dirty = append(w.dirty, a.ID)
	}
	o.latest, o.dirty = c, true
	w.checkStamps(&o.stamps, c, prev, pushStamps{now: now, incStart: u.started, runStart: w.sc.Start, inc: inc.n})
}

// traceStates writes what changed in each pushed alloc since it was last
// traced, allocs by ID and tasks by name (DET-2): the client status, each
// task's state, and each new task event. Observing the closing run (Close
// sets closed before it settles), it reports the DET-1 stamp verdict.
func (w *World) traceStates(now time.Time, ids []string, closing bool) {
	if len(ids) == 0 && !closing {
		return
	}
	w.mu.Lock()
	// Only the allocs pushed since the last instant (observe lists them),
	// taken by settle.
	slices.Sort(ids)
	type change struct{ prev, cur *structs.Allocation }
	changes := make([]change, 0, len(ids))
	for _, id := range ids {
		o := w.observed[id]
		changes = append(changes, change{o.traced, o.latest})
		o.traced, o.dirty = o.latest, false
	}
	w.mu.Unlock()
	for _, c := range changes {
		w.diffAlloc(now, c.prev, c.cur)
	}
	if closing {
		w.reportStamps()
	}
}

type allocStatus struct {
	ClientStatus string `json:"client_status"`
	Description  string `json:"description,omitempty"`
}

type taskStatus struct {
	State      string `json:"state"`
	Failed     bool   `json:"failed,omitempty"`
	Restarts   uint64 `json:"restarts,omitempty"`
	Paused     string `json:"paused,omitempty"`
	StartedAt  string `json:"started_at,omitempty"`
	FinishedAt string `json:"finished_at,omitempty"`
}

type taskEvent struct {
	Time      string            `json:"time"`
	Display   string            `json:"display,omitempty"`
	Message   string            `json:"message,omitempty"`
	FailsTask bool              `json:"fails_task,omitempty"`
	Details   map[string]string `json:"details,omitempty"`
}

func instant(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(trace.TimeFormat)
}

func statusOf(ts *structs.TaskState) taskStatus {
	return taskStatus{State: ts.State, Failed: ts.Failed, Restarts: ts.Restarts, Paused: string(ts.Paused),
		StartedAt: instant(ts.StartedAt), FinishedAt: instant(ts.FinishedAt)}
}

func (w *World) diffAlloc(now time.Time, prev, cur *structs.Allocation) {
	if prev == nil || prev.ClientStatus != cur.ClientStatus || prev.ClientDescription != cur.ClientDescription {
		w.rec.Emit(trace.Record{At: now, Kind: trace.KindAlloc, Alloc: cur.ID, Msg: cur.ClientStatus,
			Data: trace.Encode(allocStatus{cur.ClientStatus, cur.ClientDescription})})
	}
	for _, name := range structs.SortedTaskNames(cur.TaskStates) {
		ts := cur.TaskStates[name]
		if ts == nil {
			continue
		}
		var old *structs.TaskState
		if prev != nil {
			old = prev.TaskStates[name]
		}
		if st := statusOf(ts); old == nil || st != statusOf(old) {
			w.rec.Emit(trace.Record{At: now, Kind: trace.KindTask, Alloc: cur.ID, Task: name, Msg: ts.State, Data: trace.Encode(st)})
		}
		var oldEvents []*structs.TaskEvent
		if old != nil {
			oldEvents = old.Events
		}
		for _, e := range structs.AppendedEvents(oldEvents, ts.Events) {
			w.rec.Emit(trace.Record{At: now, Kind: trace.KindTaskEvent, Alloc: cur.ID, Task: name, Msg: e.Type,
				Data: trace.Encode(taskEvent{Time: instant(time.Unix(0, e.Time)), Display: e.DisplayMessage,
					Message: e.Message, FailsTask: e.FailsTask, Details: e.Details})})
		}
	}
}
