package taskrunner

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/pause"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// The policies decide where model/ says: each is consulted, and the
// zero Policies is model/'s (checked by every other test here).

// newTRWith builds a task runner of the harness's task deciding by p.
func (h *harness) newTRWith(p Policies) *TaskRunner {
	h.t.Helper()
	cfg := h.config()
	cfg.Policies = p
	tr, err := NewTaskRunner(cfg)
	must.NoError(h.t, err)
	return tr
}

// pauseDay runs a 09:00-17:00 scheduled task with a no-restart policy
// through its first pause stop and returns its state.
func pauseDay(t *testing.T, p Policies) *structs.TaskState {
	h := scheduledHarness(t, "0 9 * * * *", "0 17")
	tr := h.newTRWith(p)
	tr.Start()
	synctest.Wait()
	h.advanceTo(at(9, 0))
	h.advanceTo(at(17, 0))
	h.advance(time.Minute)
	ts := tr.TaskState()
	tr.Shutdown()
	return ts
}

func TestPolicyPauseStopEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		must.SliceNotContains(t, types(pauseDay(t, Policies{})), structs.TaskKilling) // PAUSE-5
		killing := func(_ *structs.Task, _ time.Duration, at time.Time) *structs.TaskEvent {
			return structs.NewTaskEvent(structs.TaskKilling, at)
		}
		must.SliceContains(t, types(pauseDay(t, Policies{PauseStopEvent: killing})), structs.TaskKilling)
	})
}

func TestPolicyPauseStep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ref := pauseDay(t, Policies{})
		must.False(t, ref.Failed) // PAUSE-6: the pause exit used no attempt
		must.Eq(t, structs.TaskStatePending, ref.State)
		notInduced := func(m pause.Machine, in pause.Input) (pause.Machine, pause.Output) {
			next, out := m.Step(in)
			out.PauseInduced = false
			return next, out
		}
		got := pauseDay(t, Policies{PauseStep: notInduced})
		must.True(t, got.Failed) // the exit used the policy's (zero) attempts
		must.Eq(t, structs.TaskStateDead, got.State)
	})
}

// skipCounter counts the hooks reported skipped.
type skipCounter struct {
	hookstats.Handler
	skipped []string
}

func (c *skipCounter) Skipped(hookName, _ string) { c.skipped = append(c.skipped, hookName) }

// TestSkippedHooksReported: a done prestart hook is reported skipped to
// the telemetry handler, which emits nothing for it (TELEM-3).
func TestSkippedHooksReported(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 9 * * * *", "0 17")
		rec := &skipCounter{Handler: h.stats}
		h.stats = rec
		pauseDayOn(t, h)
		must.Eq(t, []string{"validate"}, rec.skipped) // the restart after the pause stop
		const once = "nomad.client.task_hook.prestart.success hook=validate count=1"
		must.SliceContains(t, h.metrics(), once)
	})
}

// pauseDayOn is pauseDay on harness h.
func pauseDayOn(t *testing.T, h *harness) {
	tr := h.newTRWith(Policies{})
	tr.Start()
	synctest.Wait()
	h.advanceTo(at(9, 0))
	h.advanceTo(at(17, 0))
	h.advance(time.Minute)
	tr.Shutdown()
}

func TestPolicyAppendEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		keep11 := func(ts *structs.TaskState, ev *structs.TaskEvent) {
			kept := append(slices.Clone(ts.Events), ev)
			ts.AppendEvent(ev)
			ts.Events = kept[max(0, len(kept)-structs.MaxTaskEvents-1):]
		}
		for _, p := range []Policies{{}, {AppendEvent: keep11}} {
			h := newHarness(t, structs.JobTypeService, nil, newTask(map[string]any{"run_for": "1h"}))
			tr := h.newTRWith(p)
			for range 20 {
				tr.AppendEvent(structs.NewTaskEvent(structs.TaskSignaling, h.clk.Now()))
			}
			want := structs.MaxTaskEvents // DATA-6
			if p.AppendEvent != nil {
				want++
			}
			ts := tr.TaskState()
			must.Eq(t, want, len(ts.Events))
			must.Eq(t, structs.TaskSignaling, ts.Events[len(ts.Events)-1].Type)
			tr.Shutdown()
		}
	})
}

func TestPolicyRecoveredEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		started := func(at time.Time) *structs.TaskEvent { return structs.NewTaskEvent(structs.TaskStarted, at) }
		for _, p := range []Policies{{}, {RecoveredEvent: started}} {
			h := newHarness(t, structs.JobTypeService, nil, newTask(map[string]any{"run_for": "1h"}))
			tr := h.start()
			h.advance(time.Minute)
			h.crash(tr, &faults{})
			h.advance(time.Minute)
			tr2 := h.newTRWith(p)
			must.NoError(t, tr2.Restore())
			tr2.Start()
			synctest.Wait()
			ts := tr2.TaskState()
			want := 1 // STATE-4: no second Started
			if p.RecoveredEvent != nil {
				want = 2
			}
			n := 0
			for _, typ := range types(ts) {
				if typ == structs.TaskStarted {
					n++
				}
			}
			must.Eq(t, want, n, must.Sprint(types(ts)))
			must.Eq(t, structs.TaskStateRunning, ts.State)
			must.NoError(t, h.kill(tr2))
		}
	})
}

// TestPolicyEvaluate: Policies.Evaluate replaces the gate's evaluation;
// an evaluator that is always inside runs the task at once.
func TestPolicyEvaluate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 9 * * * *", "0 17")
		var calls int
		tr := h.newTRWith(Policies{Evaluate: func(*schedule.Schedule, time.Time, *time.Location) (schedule.Result, error) {
			calls++
			return schedule.Result{Inside: true}, nil
		}})
		tr.Start()
		synctest.Wait()
		must.Positive(t, calls)
		defer tr.Shutdown()
		must.True(t, slices.Contains(types(tr.TaskState()), structs.TaskStarted))
	})
}

// panicHook is a prestart hook that panics.
type panicHook struct{}

func (panicHook) Name() string { return "boom" }
func (panicHook) Prestart(context.Context, *interfaces.TaskPrestartRequest, *interfaces.TaskPrestartResponse) error {
	var h *hookres.HookResources
	h.GetCSIMounts() // a nil read, as a runner handing hook resources over late makes
	return nil
}

// TestPrestartHookPanicIsItsError: a panicking prestart hook fails with
// `panic: <value>` (the HOOKRES-4 property reads it) instead of crashing.
func TestPrestartHookPanicIsItsError(t *testing.T) {
	err := runPrestartHook(panicHook{}, context.Background(), &interfaces.TaskPrestartRequest{}, &interfaces.TaskPrestartResponse{})
	must.ErrorContains(t, err, "panic: runtime error: invalid memory address or nil pointer dereference")
}
