package taskrunner

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/internal/defect"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// The mutant seams of impl/mutants: each defect changes its one rule and
// the zero Set is the reference (checked by every other test here).

// newTRWith builds a task runner of the harness's task with defects d.
func (h *harness) newTRWith(d defect.Set, eval ScheduleEvaluator) *TaskRunner {
	h.t.Helper()
	cfg := h.config()
	cfg.Defects, cfg.Evaluate = d, eval
	tr, err := NewTaskRunner(cfg)
	must.NoError(h.t, err)
	return tr
}

// pauseDay runs a 09:00-17:00 scheduled task with a no-restart policy
// through its first pause stop and returns its state and metrics.
func pauseDay(t *testing.T, d defect.Set) (*structs.TaskState, []string) {
	h := scheduledHarness(t, "0 9 * * * *", "0 17")
	tr := h.newTRWith(d, nil)
	go tr.Run()
	synctest.Wait()
	h.advanceTo(at(9, 0))
	h.advanceTo(at(17, 0))
	h.advance(time.Minute)
	ts, m := tr.TaskState(), h.metrics()
	tr.Shutdown()
	return ts, m
}

func TestDefectPauseKillingEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ref, _ := pauseDay(t, 0)
		mut, _ := pauseDay(t, defect.PauseKillingEvent)
		must.SliceNotContains(t, types(ref), structs.TaskKilling)
		must.SliceContains(t, types(mut), structs.TaskKilling) // PAUSE-5 broken
	})
}

func TestDefectPauseCountsRestarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ref, _ := pauseDay(t, 0)
		mut, _ := pauseDay(t, defect.PauseCountsRestarts)
		must.False(t, ref.Failed)
		must.Eq(t, structs.TaskStatePending, ref.State)
		must.True(t, mut.Failed) // the pause used the policy's (zero) attempts
		must.Eq(t, structs.TaskStateDead, mut.State)
	})
}

func TestDefectTelemCountsSkipped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, ref := pauseDay(t, 0)
		_, mut := pauseDay(t, defect.TelemCountsSkipped)
		const once = "nomad.client.task_hook.prestart.success hook=validate count=1"
		must.SliceContains(t, ref, once)
		must.SliceNotContains(t, mut, once) // the skipped rerun emitted too
		must.SliceContains(t, mut, "nomad.client.task_hook.prestart.success hook=validate count=2")
	})
}

func TestDefectEventCap11(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for d, want := range map[defect.Set]int{0: structs.MaxTaskEvents, defect.EventCap11: structs.MaxTaskEvents + 1} {
			h := newHarness(t, structs.JobTypeService, nil, newTask(map[string]any{"run_for": "1h"}))
			tr := h.newTRWith(d, nil)
			for range 20 {
				tr.AppendEvent(structs.NewTaskEvent(structs.TaskSignaling, h.clk.Now()))
			}
			ts := tr.TaskState()
			must.Eq(t, want, len(ts.Events))
			must.Eq(t, structs.TaskSignaling, ts.Events[len(ts.Events)-1].Type)
			tr.Shutdown()
		}
	})
}

func TestDefectRestoreDoubleStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for d, starts := range map[defect.Set]int{0: 1, defect.RestoreDoubleStart: 2} {
			h := newHarness(t, structs.JobTypeService, nil, newTask(map[string]any{"run_for": "1h"}))
			tr := h.start()
			h.advance(time.Minute)
			h.crash(tr, &faults{})
			h.advance(time.Minute)
			tr2 := h.newTRWith(d, nil)
			must.NoError(t, tr2.Restore())
			go tr2.Run()
			synctest.Wait()
			ts := tr2.TaskState()
			n := 0
			for _, typ := range types(ts) {
				if typ == structs.TaskStarted {
					n++
				}
			}
			must.Eq(t, starts, n, must.Sprintf("defects %b: %v", d, types(ts)))
			must.Eq(t, structs.TaskStateRunning, ts.State)
			must.NoError(t, h.kill(tr2))
		}
	})
}

// TestScheduleEvaluatorSeam: Config.Evaluate replaces the gate's
// evaluation; an evaluator that is always inside runs the task at once.
func TestScheduleEvaluatorSeam(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 9 * * * *", "0 17")
		var calls int
		tr := h.newTRWith(0, func(*schedule.Schedule, time.Time, *time.Location) (schedule.Result, error) {
			calls++
			return schedule.Result{Inside: true}, nil
		})
		go tr.Run()
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
	h.GetCSIMounts() // a nil read, as hookres-late-handoff's restored prestart makes
	return nil
}

// TestPrestartHookPanicIsItsError: a panicking prestart hook fails with
// `panic: <value>` (the HOOKRES-4 property reads it) instead of crashing.
func TestPrestartHookPanicIsItsError(t *testing.T) {
	err := runPrestartHook(panicHook{}, context.Background(), &interfaces.TaskPrestartRequest{}, &interfaces.TaskPrestartResponse{})
	must.ErrorContains(t, err, "panic: runtime error: invalid memory address or nil pointer dereference")
}

// TestDefectHookresLateHandoff: the mutant's volumes hook reads the task
// runner's own field, nil until SetHookResources; the reference reads the
// Config's object.
func TestDefectHookresLateHandoff(t *testing.T) {
	res := hookres.New()
	tr := &TaskRunner{cfg: &Config{HookResources: res, Defects: defect.HookresLateHandoff}}
	must.Nil(t, tr.hookResources())
	tr.SetHookResources(res)
	must.Eq(t, res, tr.hookResources())
	ref := &TaskRunner{cfg: &Config{HookResources: res}}
	must.Eq(t, res, ref.hookResources())
}
