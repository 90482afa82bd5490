package allocrunner

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/telemetry"
)

// TestDestroy_AR1: Destroy kills the tasks, runs postrun then the destroy
// hooks (the alloc dir is removed), deletes the state DB bucket, closes
// DestroyCh, ShutdownCh and the listeners; a later PersistState writes
// nothing.
func TestDestroy_AR1(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, withCSI(testAlloc(mainTask("web")), "data"))
		ar := h.build()
		ar.hooks = append(ar.hooks, &recordingHook{log: h.log, destroyErr: errHook, postrunErr: errHook})
		go ar.Run()
		synctest.Wait()
		l := ar.Listener()
		allocs, _, err := h.db.GetAllAllocations()
		must.NoError(t, err)
		must.Len(t, 1, allocs, must.Sprint("alloc persisted on add"))

		ar.Destroy()
		ar.Destroy()  // idempotent
		ar.Shutdown() // ignored after Destroy
		h.waitClosed(ar.DestroyCh(), "DestroyCh")
		must.True(t, isClosed(ar.ShutdownCh()))
		must.True(t, isClosed(ar.WaitCh()))
		must.True(t, ar.IsDestroyed())
		must.Eq(t, []string{structs.TaskReceived, structs.TaskStarted, structs.TaskKilling, structs.TaskKilled}, h.events("web"))
		must.False(t, h.trs["web"].snapshot().shutdown)
		log := h.log.get()
		must.SliceContains(t, log, "postrun")
		must.Eq(t, "destroy", log[len(log)-1])
		_, err = ar.GetAllocDir().Stat("")
		must.Error(t, err, must.Sprint("alloc dir removed"))
		must.Eq(t, []string{"data"}, h.csi.unmounted)
		allocs, _, err = h.db.GetAllAllocations()
		must.NoError(t, err)
		must.SliceEmpty(t, allocs)
		must.NoError(t, ar.PersistState())
		allocs, _, _ = h.db.GetAllAllocations()
		must.SliceEmpty(t, allocs, must.Sprint("no resurrection"))
		var last *structs.Allocation
		for a := range l.Ch() {
			last = a
		}
		must.Eq(t, structs.AllocClientStatusComplete, last.ClientStatus)
		must.Eq(t, structs.AllocClientStatusComplete, h.updater.last().ClientStatus)
		_, ok := <-ar.Listener().Ch()
		must.False(t, ok, must.Sprint("a listener after Destroy is closed"))
	})
}

// TestDestroy_BeforeRun: the task runners are run only to be killed
// (never started), WaitCh closes, and a later Run does nothing.
func TestDestroy_BeforeRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web"), hookTask("post", structs.TaskLifecycleHookPoststop, false)))
		ar := h.build()
		ar.SetClientStatus(structs.AllocClientStatusFailed) // STATE-3 failed restore
		ar.Destroy()
		h.waitClosed(ar.DestroyCh(), "DestroyCh")
		must.True(t, isClosed(ar.WaitCh()))
		ar.Run()
		for _, name := range []string{"post", "web"} {
			must.Eq(t, []string{structs.TaskReceived, structs.TaskKilling}, h.events(name))
			must.SliceNotContains(t, h.log.get(), "start:"+name)
		}
		must.Eq(t, structs.AllocClientStatusFailed, h.updater.last().ClientStatus)
		must.SliceEmpty(t, h.metricLines(), must.Sprint("no prerun"))
	})
}

// TestDestroy_DuringPrerun: Destroy cancels a blocking prerun; the tasks,
// poststop included, are killed before they start; no Setup Failure.
func TestDestroy_DuringPrerun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web"), hookTask("post", structs.TaskLifecycleHookPoststop, false)))
		h.cfg.PrevAllocWatcher = &fakeWatcher{h: h, d: time.Hour}
		ar := h.start()
		ar.Destroy()
		h.waitClosed(ar.DestroyCh(), "DestroyCh")
		for _, name := range []string{"post", "web"} {
			must.Eq(t, []string{structs.TaskReceived, structs.TaskKilling}, h.events(name))
			must.Eq(t, "", h.trs[name].snapshot().markFailed)
		}
		must.SliceContains(t, h.metricLines(), "alloc_hook.prerun.failed hook="+telemetry.HookAwaitPrevAllocs+" count=1 sum=1")
		must.Eq(t, structs.AllocClientStatusComplete, h.updater.last().ClientStatus)
	})
}

// TestShutdown_AR1: tasks keep running (task runners shut down, no
// Killing), no postrun, no prekill, shutdown hooks run, the alloc is
// persisted, ShutdownCh closes; a later Destroy still runs the destroy
// hooks.
func TestShutdown_AR1(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, withCSI(testAlloc(mainTask("web"), mainTask("api")), "data"))
		ar := h.build()
		ar.hooks = append(ar.hooks, &recordingHook{log: h.log})
		go ar.Run()
		synctest.Wait()
		ar.Shutdown()
		ar.Shutdown()
		h.waitClosed(ar.ShutdownCh(), "ShutdownCh")
		must.True(t, isClosed(ar.WaitCh()))
		must.False(t, isClosed(ar.DestroyCh()))
		for _, name := range []string{"api", "web"} {
			must.True(t, h.trs[name].snapshot().shutdown)
			must.Eq(t, structs.TaskStateRunning, h.trs[name].TaskState().State)
			must.Nil(t, h.lastEvent(name, structs.TaskKilling))
		}
		log := h.log.get()
		must.SliceContains(t, log, "shutdown")
		must.SliceNotContains(t, log, "postrun")
		must.SliceNotContains(t, log, "prekill")
		must.SliceEmpty(t, h.csi.unmounted)
		allocs, _, err := h.db.GetAllAllocations()
		must.NoError(t, err)
		must.Len(t, 1, allocs)
		must.Eq(t, structs.AllocClientStatusRunning, allocs[0].ClientStatus)

		ar.Destroy()
		h.waitClosed(ar.DestroyCh(), "DestroyCh")
		must.Eq(t, "destroy", h.log.get()[len(h.log.get())-1])
	})
}

// TestShutdown_BeforeAndDuringPrerun: a shutdown before Run or during a
// blocking prerun launches no task runner.
func TestShutdown_BeforeAndDuringPrerun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		ar := h.build()
		ar.Shutdown()
		h.waitClosed(ar.ShutdownCh(), "ShutdownCh")
		must.True(t, isClosed(ar.WaitCh()))
		ar.Run()
		must.False(t, h.trs["web"].snapshot().ran)
	})
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		h.cfg.PrevAllocWatcher = &fakeWatcher{h: h, d: time.Hour}
		ar := h.start()
		ar.Shutdown()
		h.waitClosed(ar.ShutdownCh(), "ShutdownCh")
		must.False(t, h.trs["web"].snapshot().ran)
		must.Eq(t, "", h.trs["web"].snapshot().markFailed)
		ar.Destroy()
		h.waitClosed(ar.DestroyCh(), "DestroyCh")
	})
}

// TestShutdown_DuringKill: a shutdown abandons a kill in progress.
func TestShutdown_DuringKill(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web"), mainTask("api")))
		h.setup = func(tr *fakeTR) { tr.killDelay = time.Hour }
		ar := h.start()
		h.trs["api"].exit(true)
		synctest.Wait()
		must.NotNil(t, h.lastEvent("web", structs.TaskKilling))
		ar.Shutdown()
		h.waitClosed(ar.ShutdownCh(), "ShutdownCh")
		must.Eq(t, structs.TaskStateRunning, h.trs["web"].TaskState().State)
	})
}
