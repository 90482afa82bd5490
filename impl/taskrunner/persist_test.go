package taskrunner

import (
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// writeHold holds task_state writes while armed, each until the test
// releases it, as the simulator's gate does (sim HoldStateDB). It blocks
// on a channel with no lock held, so a held write is durably blocked.
type writeHold struct {
	armed   atomic.Bool
	held    atomic.Int32 // writes waiting for release
	release chan struct{}
}

func newWriteHold() *writeHold { return &writeHold{release: make(chan struct{})} }

func (w *writeHold) hook(wr state.Write) error {
	if wr.Key != state.KeyTaskState || !w.armed.Load() {
		return nil
	}
	w.held.Add(1)
	defer w.held.Add(-1)
	<-w.release
	return nil
}

// holdHarness is a harness whose state DB holds task_state writes.
func holdHarness(t *testing.T, task *structs.Task) (*harness, *writeHold) {
	h := newHarness(t, structs.JobTypeService, nil, task)
	hold := newWriteHold()
	h.db = state.NewMemDB(state.MemConfig{FaultHook: hold.hook})
	return h, hold
}

func hookMessage(h *harness, msg string) *structs.TaskEvent {
	return structs.NewTaskEvent(structs.TaskHookMessage, h.clk.Now()).SetMessage(msg)
}

func lastMessage(ts *structs.TaskState) string { return ts.Events[len(ts.Events)-1].Message }

// TestHeldWriteSettles (STATE-2, DET-3): while a task_state write is held,
// a second change waits for the persistence lock durably (a sync.Mutex
// would keep synctest.Wait from returning: this test would hang), reaches
// the DB only after the first, and TaskState shows each change only once
// its write returned, so other goroutines never see a change in flight.
func TestHeldWriteSettles(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, hold := holdHarness(t, newTask(map[string]any{"run_for": "1h"}))
		tr := h.start()
		must.EqOp(t, structs.TaskStateRunning, tr.TaskState().State)
		before := len(tr.TaskState().Events)

		hold.armed.Store(true)
		go tr.AppendEvent(hookMessage(h, "first"))
		synctest.Wait()
		must.EqOp(t, 1, hold.held.Load())
		must.Len(t, before, tr.TaskState().Events, must.Sprint("a change in flight is not published"))

		go tr.AppendEvent(hookMessage(h, "second"))
		synctest.Wait()
		must.EqOp(t, 1, hold.held.Load(), must.Sprint("the second write waits for the first"))

		hold.release <- struct{}{}
		synctest.Wait()
		must.EqOp(t, 1, hold.held.Load())
		must.EqOp(t, "first", lastMessage(tr.TaskState()))
		_, persisted := h.persisted()
		must.EqOp(t, "first", lastMessage(persisted))

		hold.armed.Store(false)
		hold.release <- struct{}{}
		synctest.Wait()
		ts := tr.TaskState()
		must.Eq(t, []string{structs.TaskHookMessage, structs.TaskHookMessage}, tail(ts, 2))
		must.EqOp(t, "second", lastMessage(ts))
		_, persisted = h.persisted()
		must.Eq(t, ts, persisted, must.Sprint("the DB holds the newest state (writes in change order)"))
		must.NoError(t, h.kill(tr))
	})
}

// TestHeldPauseWriteSettles (PAUSE-2, DET-3): SetPauseState persists with
// the pause gate's lock held; while that write is held a concurrent
// GetPauseState waits for the lock durably and then sees the stored
// state; the gate opens once the write returned.
func TestHeldPauseWriteSettles(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := newTask(map[string]any{"run_for": "10h"})
		tk.Schedule = scheduled("0 9 * * * *", "0 17") // t0 is 08:00: outside
		h, hold := holdHarness(t, tk)
		tr := h.start()
		must.EqOp(t, structs.TaskScheduleStateSchedulePause, tr.GetPauseState())
		must.EqOp(t, structs.TaskStatePending, tr.TaskState().State)

		hold.armed.Store(true)
		setErr := make(chan error, 1)
		go func() { setErr <- tr.SetPauseState(structs.TaskScheduleStateForceRun) }()
		synctest.Wait()
		must.EqOp(t, 1, hold.held.Load())

		got := make(chan structs.TaskScheduleState, 1)
		go func() { got <- tr.GetPauseState() }()
		synctest.Wait()
		select {
		case s := <-got:
			t.Fatalf("GetPauseState returned %q while SetPauseState's write was held", s)
		case err := <-setErr:
			t.Fatalf("SetPauseState returned (%v) before its write", err)
		default:
		}

		hold.armed.Store(false)
		hold.release <- struct{}{}
		synctest.Wait()
		must.NoError(t, <-setErr)
		must.EqOp(t, structs.TaskScheduleStateForceRun, <-got)
		ts := tr.TaskState()
		must.EqOp(t, structs.TaskStateRunning, ts.State)
		must.EqOp(t, structs.TaskScheduleStateForceRun, ts.Paused)
		must.NoError(t, h.kill(tr))
	})
}

// countTaskStateWrites counts the task_state writes of the harness's DB.
func countTaskStateWrites(h *harness) *atomic.Int32 {
	var n atomic.Int32
	h.setDBFault(func(w state.Write) error {
		if w.Key == state.KeyTaskState {
			n.Add(1)
		}
		return nil
	})
	return &n
}

// unreadableDB is a state DB whose task state reads fail.
type unreadableDB struct{ interfaces.StateDB }

func (unreadableDB) GetTaskRunnerState(string, string) (*interfaces.LocalState, *structs.TaskState, error) {
	return nil, nil, errors.New("unreadable")
}

// TestFreshStatePersistedOnce (STATE-2, STATE-3, DET-3): a fresh runner's
// state (`Received`) is written by construction, a restored one is not
// written again, neither by Restore nor by Run, so no runner's Run starts
// with a write an alloc runner's kill rule may race at the same instant;
// construction over a DB it cannot read leaves the write to Run.
func TestFreshStatePersistedOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(map[string]any{"run_for": "1h"}))
		writes := countTaskStateWrites(h)
		h.startCh = make(chan struct{}) // hold every loop before prestart
		tr := h.newTR()
		must.EqOp(t, 1, writes.Load(), must.Sprint("construction writes the fresh state"))
		_, ts := h.persisted()
		must.Eq(t, []string{structs.TaskReceived}, types(ts))
		tr.Start()
		synctest.Wait()
		must.EqOp(t, 1, writes.Load(), must.Sprint("Run does not write it again"))
		tr.AppendEvent(hookMessage(h, "mark"))
		h.crash(tr, &faults{})

		writes.Store(0)
		tr2 := h.restored()
		must.EqOp(t, 0, writes.Load(), must.Sprint("a persisted state is neither overwritten nor written back"))
		must.EqOp(t, "mark", lastMessage(tr2.TaskState()))
		tr2.Start()
		synctest.Wait()
		must.EqOp(t, 0, writes.Load(), must.Sprint("nor written by Run"))
		h.crash(tr2, &faults{})

		must.NoError(t, h.db.DeleteTaskBucket(testAllocID, testTask))
		writes.Store(0)
		tr3 := h.restored()
		must.EqOp(t, 1, writes.Load(), must.Sprint("no task state: construction persists the fresh one"))
		must.Eq(t, []string{structs.TaskReceived}, types(tr3.TaskState()))
		tr3.Shutdown()

		must.NoError(t, h.db.DeleteTaskBucket(testAllocID, testTask))
		writes.Store(0)
		cfg := h.config()
		cfg.StateDB = unreadableDB{h.db}
		tr4, err := NewTaskRunner(cfg)
		must.NoError(t, err)
		must.EqOp(t, 0, writes.Load(), must.Sprint("unreadable DB: construction does not write"))
		tr4.Start()
		synctest.Wait()
		must.EqOp(t, 1, writes.Load(), must.Sprint("Run writes the fresh state"))
		tr4.Shutdown()
	})
}

// TestStartWritesLeftoverState (STATE-2, DET-3): a runner built afresh
// over a task state a crashed incarnation left in the DB (its alloc was
// not restored) is not written by construction; Start writes it before it
// returns, on the caller's goroutine, so an alloc runner's kill right
// after Start never races the run for that write, and the run does not
// write it again.
func TestStartWritesLeftoverState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(map[string]any{"run_for": "1h"}))
		writes := countTaskStateWrites(h)
		h.startCh = make(chan struct{}) // hold every loop before prestart
		h.crash(h.newTR(), &faults{})   // leaves its fresh state behind

		writes.Store(0)
		tr := h.newTR() // built afresh, not restored
		must.EqOp(t, 0, writes.Load(), must.Sprint("a task state is in the DB: construction leaves it"))
		tr.Start()
		must.EqOp(t, 1, writes.Load(), must.Sprint("Start wrote it before returning"))
		synctest.Wait()
		must.EqOp(t, 1, writes.Load(), must.Sprint("the run does not write it again"))
		tr.Shutdown()
	})
}

// TestTaskStateVersion: the version moves when, and only when, TaskState
// publishes a change: not while its write is held, and not by reading.
func TestTaskStateVersion(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, hold := holdHarness(t, newTask(map[string]any{"run_for": "1h"}))
		tr := h.start()
		v := tr.TaskStateVersion()
		before := tr.TaskState()
		must.EqOp(t, v, tr.TaskStateVersion(), must.Sprint("reading is no change"))

		hold.armed.Store(true)
		go tr.AppendEvent(hookMessage(h, "first"))
		synctest.Wait()
		must.EqOp(t, v, tr.TaskStateVersion(), must.Sprint("a change in flight is not published"))
		must.Eq(t, before, tr.TaskState())

		hold.armed.Store(false)
		hold.release <- struct{}{}
		synctest.Wait()
		must.Greater(t, v, tr.TaskStateVersion())
		must.EqOp(t, "first", lastMessage(tr.TaskState()))
		must.NoError(t, h.kill(tr))
	})
}
