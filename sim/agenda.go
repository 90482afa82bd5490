package sim

import (
	"cmp"
	"errors"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// agendaItem is one world event: a timed fault (or its end), a job
// registration or an API call, at an instant.
type agendaItem struct {
	at   time.Time
	rank int // at one instant: faults, then jobs, then calls
	seq  int // then in the order they were added
	run  func()
}

// The world's events are not clock timers: they run on the world's loop,
// at their instant, after every clock timer due at that instant has fired
// and settled (so their order against the runner's timers of the same
// instant never depends on the order in which goroutines armed those
// timers), in (rank, order added), each group in a goroutine of its own
// that the world waits for while it advances the clock as that group
// needs (a crash's shutdown).

// schedule queues the scenario's events: timed faults by At then class,
// then jobs, then calls, each in scenario order.
func (w *World) schedule() {
	for _, f := range w.sc.Faults.Timed() {
		w.at(w.sc.Start.Add(f.At), 0, func() { w.fireTimed(f) })
	}
	for _, j := range w.sc.Jobs {
		w.at(w.sc.Start.Add(j.At.D()), 1, func() { w.register(j.Job) })
	}
	for _, c := range w.sc.Calls {
		w.at(w.sc.Start.Add(c.At.D()), 2, func() { w.call(c) })
	}
}

// at queues f at instant t (now, if t has passed).
func (w *World) at(t time.Time, rank int, f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.agendaSeq++
	w.agenda = append(w.agenda, agendaItem{at: t, rank: rank, seq: w.agendaSeq, run: f})
	slices.SortFunc(w.agenda, func(a, b agendaItem) int {
		return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.rank, b.rank), cmp.Compare(a.seq, b.seq))
	})
}

// nextEvent is the instant of the first queued world event.
func (w *World) nextEvent() (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.agenda) == 0 {
		return time.Time{}, false
	}
	return w.agenda[0].at, true
}

// runEvents runs the world events due now, in order, each in a goroutine
// of its own that the world waits for (advancing the clock while it needs
// it) and whose consequences settle before the next event runs.
func (w *World) runEvents() {
	now := w.clk.Now()
	w.mu.Lock()
	var due []agendaItem
	for len(w.agenda) > 0 && !w.agenda[0].at.After(now) {
		due = append(due, w.agenda[0])
		w.agenda = w.agenda[1:]
	}
	w.mu.Unlock()
	for _, it := range due {
		w.await(it.run, "world event")
	}
}

// await runs f in a goroutine and advances the world until it returned
// and settled.
func (w *World) await(f func(), what string) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	w.drain(func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}, what)
}

// fireTimed fires a timed fault and arms its end.
func (w *World) fireTimed(f faults.Fault) {
	w.rec.Emit(trace.Record{At: w.clk.Now(), Kind: trace.KindFault, Op: string(f.Class), Msg: "fire", Data: trace.Encode(f.String())})
	switch f.Class {
	case faults.RPCPartition:
		w.net.Partition()
		w.at(w.sc.Start.Add(f.At+f.For), 0, func() {
			w.net.Heal()
			w.rec.Emit(trace.Record{At: w.clk.Now(), Kind: trace.KindFault, Op: string(f.Class), Msg: "heal"})
		})
	case faults.NodeDisconnect:
		w.net.Partition()
		if err := w.srv.DisconnectNode(w.node.NodeID); err != nil {
			w.emit(trace.KindWorld, "disconnect_skipped", errString(err))
		}
		w.at(w.sc.Start.Add(f.At+f.For), 0, func() {
			w.net.Heal()
			w.rec.Emit(trace.Record{At: w.clk.Now(), Kind: trace.KindFault, Op: string(f.Class), Msg: "heal"})
		})
	case faults.ClientCrash, faults.ClientRestart:
		end, skipped := w.Crash, "crash_skipped"
		if f.Class == faults.ClientRestart {
			end, skipped = w.Stop, "stop_skipped" // graceful
		}
		if err := end(); err != nil {
			w.emit(trace.KindWorld, skipped, errString(err))
			return
		}
		w.at(w.sc.Start.Add(f.At+f.For), 0, func() {
			if err := w.Restart(); err != nil {
				w.emit(trace.KindWorld, "restart_failed", errString(err))
			}
		})
	case faults.ClockJump:
		w.mu.Lock()
		w.jump += f.For
		w.mu.Unlock()
	}
}

// register registers a scenario job; the server traces the outcome.
func (w *World) register(job *structs.Job) {
	_, _ = w.srv.RegisterJob(job)
}

type callResult struct {
	State string `json:"state,omitempty"`
	Index uint64 `json:"index,omitempty"`
	Error string `json:"error,omitempty"`
}

// call makes a scenario API call through the server, as the agent would
// for an alloc its own client does not hold (API-7), and traces it.
func (w *World) call(c scenario.Call) {
	var allocID string
	var res callResult
	var err error
	switch c.Op {
	case scenario.OpStopJob:
		err = w.srv.StopJob(c.Job)
	case scenario.OpUpdateSchedule:
		err = w.updateSchedule(c)
	default:
		a := w.srv.AllocByName(c.Alloc)
		if a == nil {
			err = errors.New("no alloc named " + c.Alloc)
			break
		}
		allocID = a.ID
		if c.Op == scenario.OpEvictAlloc {
			err = w.srv.EvictAlloc(allocID)
			break
		}
		if c.Op == scenario.OpGCAlloc {
			err = w.srv.GCAlloc(allocID)
			break
		}
		res, err = w.allocCall(c, allocID)
	}
	res.Error = errString(err)
	msg := "ok"
	if err != nil {
		msg = "error"
	}
	w.rec.Emit(trace.Record{At: w.clk.Now(), Kind: trace.KindAPI, Alloc: allocID, Task: c.Task, Op: string(c.Op), Msg: msg, Data: trace.Encode(res)})
}

func (w *World) allocCall(c scenario.Call, allocID string) (callResult, error) {
	switch c.Op {
	case scenario.OpGetPause:
		var reply structs.AllocGetPauseStateResponse
		err := w.srv.GetPauseState(&structs.AllocGetPauseStateRequest{AllocID: allocID, Task: c.Task}, &reply)
		return callResult{State: string(reply.ScheduleState)}, err
	case scenario.OpSignal:
		var reply structs.GenericResponse
		err := w.srv.Signal(&structs.AllocSignalRequest{AllocID: allocID, Task: c.Task, Signal: c.Signal}, &reply)
		return callResult{Index: reply.Index}, err
	case scenario.OpRestart:
		var reply structs.GenericResponse
		err := w.srv.Restart(&structs.AllocRestartRequest{AllocID: allocID, TaskName: c.Task}, &reply)
		return callResult{Index: reply.Index}, err
	default:
		var reply structs.GenericResponse
		err := w.srv.SetPauseState(&structs.AllocPauseRequest{AllocID: allocID, Task: c.Task, ScheduleState: c.Op.ScheduleState()}, &reply)
		return callResult{Index: reply.Index}, err
	}
}

// updateSchedule re-registers the job with one task's schedule replaced
// (PAUSE-7: the server updates such a job in place).
func (w *World) updateSchedule(c scenario.Call) error {
	job := w.srv.Job(c.Job)
	if job == nil {
		return errors.New("job " + c.Job + " is not registered")
	}
	found := false
	for _, tg := range job.TaskGroups {
		if t := tg.LookupTask(c.Task); t != nil {
			t.Schedule = c.Schedule
			found = true
		}
	}
	if !found {
		return errors.New("job " + c.Job + " has no task " + c.Task)
	}
	_, err := w.srv.RegisterJob(job)
	return err
}
