package allocrunner

import (
	"encoding/json"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/impl/drivers/mock"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// Integration tests: the alloc runner with the reference task runner, the
// mock driver, the memory state DB and the memory alloc dir, on the
// virtual clock.

func realTask(name string, cfg map[string]any) *structs.Task {
	return &structs.Task{Name: name, Driver: mock.DefaultName, Config: cfg}
}

// realAlloc is a batch alloc whose group allows no restarts.
func realAlloc(tasks ...*structs.Task) *structs.Allocation {
	a := testAlloc(tasks...)
	a.Job.Type = structs.JobTypeBatch
	a.Job.TaskGroups[0].RestartPolicy = structs.NewRestartPolicy(0, 5*time.Minute, 15*time.Second, structs.RestartPolicyModeFail)
	a.Job.Canonicalize()
	return a
}

// buildReal builds the alloc runner with the reference task runner over a
// mock driver on the harness clock.
func (h *harness) buildReal() *allocRunner {
	h.t.Helper()
	if h.cfg.DriverManager == nil {
		h.cfg.DriverManager = drivers.NewRegistry(mock.New(mock.Config{Clock: h.clk}))
	}
	ar, err := newAllocRunner(h.cfg, Policies{})
	must.NoError(h.t, err)
	h.ar = ar
	h.t.Cleanup(func() {
		ar.Destroy()
		if !h.advanceUntil(ar.DestroyCh()) {
			h.t.Errorf("DestroyCh not closed after 600 virtual seconds")
		}
	})
	return ar
}

func (h *harness) startReal() *allocRunner {
	ar := h.buildReal()
	go ar.Run()
	synctest.Wait()
	return ar
}

// realEvents returns a task's event types.
func realEvents(ar *allocRunner, task string) []string {
	var out []string
	for _, e := range ar.tasks[task].TaskState().Events {
		out = append(out, e.Type)
	}
	return out
}

func realEvent(ar *allocRunner, task, typ string) *structs.TaskEvent {
	for _, e := range ar.tasks[task].TaskState().Events {
		if e.Type == typ {
			return e
		}
	}
	return nil
}

// TestIntegration_BatchCompletes: two batch tasks run and complete; the
// alloc completes, Run returns, prerun and prestart telemetry is emitted
// once per hook, and the CSI volume a task mounts is found by its volumes
// prestart.
func TestIntegration_BatchCompletes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		web := realTask("web", map[string]any{"run_for": "10s"})
		web.VolumeMounts = []*structs.VolumeMount{{Volume: "data", Destination: "/data"}}
		a := withCSI(realAlloc(web, realTask("api", map[string]any{"run_for": "20s"})), "data")
		h := newHarness(t, a)
		ar := h.startReal()
		must.Eq(t, structs.AllocClientStatusRunning, h.updater.last().ClientStatus)
		h.advance(10 * time.Second)
		must.Eq(t, structs.TaskStateDead, ar.tasks["web"].TaskState().State)
		must.False(t, isClosed(ar.WaitCh()))
		h.advance(10 * time.Second)
		must.True(t, isClosed(ar.WaitCh()))
		last := h.updater.last()
		must.Eq(t, structs.AllocClientStatusComplete, last.ClientStatus)
		for _, name := range []string{"api", "web"} {
			must.Eq(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted, structs.TaskTerminated}, realEvents(ar, name))
		}
		lines := h.metricLines()
		for _, hook := range []string{"alloc_dir", "await_previous_allocations", "migrate_disk", "csi_hook"} {
			must.SliceContains(t, lines, "alloc_hook.prerun.success hook="+hook+" count=1 sum=1")
		}
		for _, hook := range []string{"validate", "task_dir", "volumes"} {
			must.SliceContains(t, lines, "task_hook.prestart.success hook="+hook+" count=2 sum=2")
		}
		must.Eq(t, []string{"data"}, h.csi.unmounted)
	})
}

// TestIntegration_SiblingFailed_AR9: a failing task kills its sibling,
// which gets Sibling Task Failed, Killing, Terminated, Killed.
func TestIntegration_SiblingFailed_AR9(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, realAlloc(
			realTask("bad", map[string]any{"run_for": "5s", "exit_code": 1}),
			realTask("good", map[string]any{})))
		ar := h.startReal()
		h.advance(5 * time.Second)
		h.advance(5 * time.Second)
		must.True(t, isClosed(ar.WaitCh()))
		must.Eq(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted, structs.TaskSiblingFailed,
			structs.TaskKilling, structs.TaskTerminated, structs.TaskKilled}, realEvents(ar, "good"))
		must.Eq(t, "bad", realEvent(ar, "good", structs.TaskSiblingFailed).FailedSibling)
		must.Eq(t, structs.AllocClientStatusFailed, h.updater.last().ClientStatus)
		must.False(t, ar.tasks["good"].TaskState().Failed)
	})
}

// TestIntegration_PrerunFailure_AR4: a failing CSI mount fails every
// task with Setup Failure before it starts.
func TestIntegration_PrerunFailure_AR4(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, withCSI(realAlloc(realTask("web", map[string]any{}), realTask("api", map[string]any{})), "data"))
		h.csi.fail = map[string]error{"data": errBoom}
		ar := h.startReal()
		must.True(t, isClosed(ar.WaitCh()))
		for _, name := range []string{"api", "web"} {
			must.Eq(t, []string{structs.TaskReceived, structs.TaskSetupFailure}, realEvents(ar, name))
			ev := realEvent(ar, name, structs.TaskSetupFailure)
			must.Eq(t, `failed to setup alloc: pre-run hook "csi_hook" failed: failed to mount CSI volume "data": boom`, ev.DisplayMessage)
			must.Eq(t, structs.TaskRestoreFailed, ev.Details["kill_reason"])
			st := ar.tasks[name].TaskState()
			must.Eq(t, structs.TaskStateDead, st.State)
			must.True(t, st.Failed)
		}
		must.Eq(t, structs.AllocClientStatusFailed, h.updater.last().ClientStatus)
		must.MapEmpty(t, ar.hookResources.GetCSIMounts())
	})
}

// TestIntegration_StopAndLeader_AR9_AR10: a server stop kills the leader
// first and the others after it; the alloc completes.
func TestIntegration_StopAndLeader_AR9_AR10(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lead := realTask("lead", map[string]any{"kill_after": "2s"})
		lead.Leader = true
		h := newHarness(t, realAlloc(lead, realTask("web", map[string]any{})))
		ar := h.startReal()
		stop := ar.Alloc()
		stop.DesiredStatus = structs.AllocDesiredStatusStop
		stop.AllocModifyIndex++
		ar.Update(stop)
		synctest.Wait()
		must.NotNil(t, realEvent(ar, "lead", structs.TaskKilling))
		must.Nil(t, realEvent(ar, "web", structs.TaskKilling), must.Sprint("the leader is killed first, synchronously"))
		h.advance(2 * time.Second)
		must.NotNil(t, realEvent(ar, "web", structs.TaskKilling))
		must.True(t, isClosed(ar.WaitCh()))
		must.Eq(t, structs.AllocClientStatusComplete, h.updater.last().ClientStatus)
		ev := realEvent(ar, "lead", structs.TaskKilling)
		must.Eq(t, "Sent interrupt. Waiting 5s before force killing", ev.DisplayMessage)
	})
}

// TestIntegration_ShutdownRestore_STATE3: after a shutdown the tasks keep
// running; a new runner restores from the state DB, re-mounts the CSI
// volume from its stub, and recovers the task without a second Started.
func TestIntegration_ShutdownRestore_STATE3(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		web := realTask("web", map[string]any{"run_for": "1h"})
		web.VolumeMounts = []*structs.VolumeMount{{Volume: "data", Destination: "/data"}}
		h := newHarness(t, withCSI(realAlloc(web), "data"))
		reg := drivers.NewRegistry(mock.New(mock.Config{Clock: h.clk}))
		h.cfg.DriverManager = reg
		ar1, err := newAllocRunner(h.cfg, Policies{})
		must.NoError(t, err)
		go ar1.Run()
		synctest.Wait()
		ar1.AcknowledgeState(ar1.AllocState())
		ar1.Shutdown()
		h.waitClosed(ar1.ShutdownCh(), "ShutdownCh")
		h.advance(time.Minute)

		allocs, errs, err := h.db.GetAllAllocations()
		must.NoError(t, err)
		must.MapEmpty(t, errs)
		must.Len(t, 1, allocs)
		vols, err := h.db.GetAllocVolumes("a1")
		must.NoError(t, err)
		must.Eq(t, &interfaces.CSIMountPoint{Source: "/csi/a1/src-data"}, vols.CSIVolumes["data"].MountInfo)

		h.cfg.Alloc = allocs[0]
		h.cfg.DriverManager = drivers.NewRegistry(mock.New(mock.Config{Clock: h.clk})) // a new agent's driver
		h.csi.mounted = nil
		ar := h.buildReal()
		must.NoError(t, ar.Restore())
		go ar.Run()
		synctest.Wait()
		must.Eq(t, []string{"data"}, h.csi.mounted, must.Sprint("STATE-4: prerun re-mounts"))
		must.Eq(t, map[string]*interfaces.CSIMountPoint{"data": {Source: "/csi/a1/src-data"}}, ar.hookResources.GetCSIMounts())
		must.Eq(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted}, realEvents(ar, "web"))
		must.Eq(t, structs.TaskStateRunning, ar.tasks["web"].TaskState().State)
		must.Eq(t, structs.AllocClientStatusRunning, ar.AllocState().ClientStatus)
	})
}

// TestIntegration_StopRunsPoststop_AR9: after a server stop kills the main
// task, the poststop task runs to completion and the alloc finishes.
func TestIntegration_StopRunsPoststop_AR9(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		post := realTask("post", map[string]any{"run_for": "3s"})
		post.Lifecycle = &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPoststop}
		h := newHarness(t, realAlloc(realTask("web", map[string]any{}), post))
		ar := h.startReal()
		must.Eq(t, structs.TaskStatePending, ar.tasks["post"].TaskState().State)
		stop := ar.Alloc()
		stop.DesiredStatus = structs.AllocDesiredStatusStop
		stop.AllocModifyIndex++
		ar.Update(stop)
		synctest.Wait()
		must.Eq(t, structs.TaskStateDead, ar.tasks["web"].TaskState().State)
		must.Eq(t, structs.TaskStateRunning, ar.tasks["post"].TaskState().State, must.Sprint("poststop runs after a stop"))
		h.advance(3 * time.Second)
		must.True(t, isClosed(ar.WaitCh()))
		must.Eq(t, []string{structs.TaskReceived, structs.TaskSetup, structs.TaskStarted, structs.TaskTerminated}, realEvents(ar, "post"))
	})
}

// TestIntegration_FailedRestoreDestroy_STATE3: when Restore fails (the
// alloc dir is gone) the client sets the alloc failed and destroys it
// without Run; the task runners still kill the recovered task, so its
// driver task is not left running.
func TestIntegration_FailedRestoreDestroy_STATE3(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, realAlloc(realTask("web", map[string]any{})))
		var ops []string
		drv := mock.New(mock.Config{Clock: h.clk, OnEvent: func(e mock.DriverEvent) { ops = append(ops, string(e.Op)) }})
		h.cfg.DriverManager = drivers.NewRegistry(drv)
		ar1, err := newAllocRunner(h.cfg, Policies{})
		must.NoError(t, err)
		go ar1.Run()
		synctest.Wait()
		ar1.Shutdown()
		h.waitClosed(ar1.ShutdownCh(), "ShutdownCh")
		must.NoError(t, ar1.GetAllocDir().Destroy())

		ar := h.buildReal()
		err = ar.Restore()
		must.StrHasPrefix(t, "allocation directory is inaccessible: ", err.Error())
		ar.SetClientStatus(structs.AllocClientStatusFailed)
		ops = nil
		ar.Destroy()
		h.waitClosed(ar.DestroyCh(), "DestroyCh")
		must.SliceContains(t, ops, string(mock.OpStop), must.Sprintf("driver calls %v", ops))
		must.Eq(t, structs.TaskStateDead, ar.tasks["web"].TaskState().State)
		must.Eq(t, structs.AllocClientStatusFailed, h.updater.last().ClientStatus)
	})
}

// TestIntegration_Replay_DET4: the same scenario twice gives the same
// pushed allocs, the same state DB contents and the same metrics.
func TestIntegration_Replay_DET4(t *testing.T) {
	run := func() string {
		var out string
		synctest.Test(t, func(t *testing.T) {
			a := realAlloc(
				realTask("bad", map[string]any{"run_for": "5s", "exit_code": 1}),
				realTask("good", map[string]any{"kill_after": "1s"}),
				realTask("done", map[string]any{"run_for": "2s"}))
			a.Job.TaskGroups[0].RestartPolicy = structs.NewRestartPolicy(2, time.Hour, 3*time.Second, structs.RestartPolicyModeFail)
			h := newHarness(t, withCSI(a, "data"))
			ar := h.startReal()
			for range 30 {
				h.advance(time.Second)
			}
			must.True(t, isClosed(ar.WaitCh()))
			final := h.updater.last()
			allocs, _, err := h.db.GetAllAllocations()
			must.NoError(t, err)
			out = fmt.Sprintf("%s\n%v\n%s", mustJSON(t, final), h.metricLines(), mustJSON(t, allocs))
		})
		return out
	}
	first, second := run(), run()
	must.Eq(t, first, second)
	must.StrContains(t, first, `"Sibling Task Failed"`)
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	must.NoError(t, err)
	return string(b)
}
