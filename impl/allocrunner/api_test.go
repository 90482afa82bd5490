package allocrunner

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

// TestSignal_PAUSE11_API6: one task gets Signaling with the signal name
// in Details; an unknown task is `Task not found`; an empty name signals
// every task and aggregates failures.
func TestSignal_PAUSE11_API6(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web"), mainTask("api"), mainTask("db")))
		ar := h.start()
		must.NoError(t, ar.Signal("web", "SIGHUP"))
		ev := h.lastEvent("web", structs.TaskSignaling)
		must.NotNil(t, ev)
		must.Eq(t, "SIGHUP", ev.Details["signal"])
		must.Eq(t, structs.DisplaySignalingGeneric, ev.DisplayMessage)

		must.EqError(t, ar.Signal("nope", "SIGHUP"), "Task not found")

		h.trs["api"].signalErr = errBoom
		h.trs["db"].signalErr = errHook
		err := ar.Signal("", "SIGUSR1")
		must.EqError(t, err, "Failed to signal task: api, err: boom\nFailed to signal task: db, err: hook failed")
		must.Eq(t, []string{"SIGHUP", "SIGUSR1"}, h.trs["web"].snapshot().signals)
		h.finish()
	})
}

// TestRestart_AR1: Restart Signaled routing and messages.
func TestRestart_AR1(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web"), mainTask("api"), hookTask("init", structs.TaskLifecycleHookPrestart, false),
			hookTask("post", structs.TaskLifecycleHookPoststop, false)))
		ar := h.start()
		h.trs["init"].exit(false)
		synctest.Wait()

		must.EqError(t, ar.RestartTask("nope", nil), "Could not find task runner for task: nope")
		must.NoError(t, ar.RestartTask("web", (&structs.TaskEvent{Type: structs.TaskKilling}).SetRestartReason("User requested restart")))
		ev := h.lastEvent("web", structs.TaskRestartSignal)
		must.NotNil(t, ev)
		must.Eq(t, "User requested restart", ev.DisplayMessage)
		must.Eq(t, t0.UnixNano(), ev.Time)
		synctest.Wait()

		must.NoError(t, ar.RestartRunning(nil))
		synctest.Wait()
		must.Eq(t, map[string]int{"web": 2, "api": 1, "init": 0, "post": 0}, restarts(h))

		must.NoError(t, ar.RestartAll(nil))
		synctest.Wait()
		must.Eq(t, map[string]int{"web": 3, "api": 2, "init": 1, "post": 0}, restarts(h))

		ar.Update(idx(20, structs.AllocDesiredStatusStop))
		synctest.Wait()
		for _, err := range []error{ar.RestartTask("web", nil), ar.RestartRunning(nil), ar.RestartAll(nil)} {
			must.EqError(t, err, "restart of an alloc that should not run")
		}
		h.finish()
	})
}

func restarts(h *harness) map[string]int {
	out := map[string]int{}
	for name, tr := range h.trs {
		out[name] = tr.snapshot().restarts
	}
	return out
}

// TestPauseState_PAUSE2: routing by task name; unknown task is `Task not
// found`.
func TestPauseState_PAUSE2(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sched := mainTask("cron")
		sched.Schedule = &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 17"}}
		h := newHarness(t, testAlloc(sched, mainTask("web")))
		ar := h.start()
		must.NoError(t, ar.SetTaskPauseState("cron", structs.TaskScheduleStateForcePause))
		got, err := ar.GetTaskPauseState("cron")
		must.NoError(t, err)
		must.Eq(t, structs.TaskScheduleStateForcePause, got)
		must.ErrorIs(t, ar.SetTaskPauseState("web", structs.TaskScheduleStateForceRun), errNoSchedule)
		must.EqError(t, ar.SetTaskPauseState("nope", structs.TaskScheduleStateForceRun), "Task not found")
		_, err = ar.GetTaskPauseState("nope")
		must.EqError(t, err, "Task not found")
		h.finish()
	})
}

// TestReconnect_AR1: Reconnected to every task, the server's indexes
// copied, the alloc persisted through the state updater and pushed.
func TestReconnect_AR1(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web"), mainTask("api")))
		ar := h.start()
		h.advance(time.Minute)
		upd := testAlloc(mainTask("web"), mainTask("api"))
		upd.CreateIndex, upd.ModifyIndex, upd.AllocModifyIndex = 3, 40, 41
		upd.DesiredStatus = structs.AllocDesiredStatusStop // not adopted: indexes only
		must.NoError(t, ar.Reconnect(upd))
		for _, name := range []string{"api", "web"} {
			ev := h.lastEvent(name, structs.TaskClientReconnected)
			must.NotNil(t, ev)
			must.Eq(t, "Client reconnected", ev.DisplayMessage)
			must.Eq(t, t0.Add(time.Minute).UnixNano(), ev.Time)
		}
		a := ar.Alloc()
		must.Eq(t, []uint64{3, 40, 41}, []uint64{a.CreateIndex, a.ModifyIndex, a.AllocModifyIndex})
		must.Eq(t, structs.AllocDesiredStatusRun, a.DesiredStatus)
		must.Len(t, 1, h.updater.puts)
		must.Eq(t, uint64(41), h.updater.puts[0].AllocModifyIndex)
		must.NotNil(t, h.updater.last().TaskStates["web"])

		h.updater.putErr = errBoom
		must.ErrorIs(t, ar.Reconnect(upd), errBoom)
		h.finish()
	})
}

// TestListener_AR1: a listener sees the newest computed alloc, also one
// sent before it subscribed; Close ends it.
func TestListener_AR1(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		ar := h.start()
		l := ar.Listener()
		a := <-l.Ch()
		must.Eq(t, structs.AllocClientStatusRunning, a.ClientStatus)
		l2 := ar.Listener()
		ar.SetClientStatus(structs.AllocClientStatusFailed)
		synctest.Wait()
		ar.SetClientStatus(structs.AllocClientStatusComplete)
		synctest.Wait()
		a = <-l.Ch()
		must.Eq(t, structs.AllocClientStatusComplete, a.ClientStatus, must.Sprint("the newest only"))
		l.Close()
		l.Close()
		_, ok := <-l.Ch()
		must.False(t, ok)
		a = <-l2.Ch()
		must.Eq(t, structs.AllocClientStatusComplete, a.ClientStatus)
		// Listeners get a copy: not the alloc the state updater got.
		h.updater.mu.Lock()
		last := h.updater.pushed[len(h.updater.pushed)-1]
		h.updater.mu.Unlock()
		must.Eq(t, last.ClientStatus, a.ClientStatus)
		must.True(t, a != last, must.Sprint("a listener shares the updater's alloc"))
		l3 := ar.Listener() // subscribes after the send: a copy too
		must.True(t, <-l3.Ch() != last)
		l3.Close()
		h.finish()
		n := 0
		for range l2.Ch() { // Destroy's final push, then closed
			n++
		}
		must.Eq(t, 1, n)
	})
}

// TestPriority_SYNC2: GetUpdatePriority against the acknowledged state,
// which AcknowledgeState stores and persists.
func TestPriority_SYNC2(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		ar := h.start()
		a := ar.Alloc()
		must.Eq(t, syncpolicy.Typical, ar.GetUpdatePriority(a))
		ar.AcknowledgeState(ar.AllocState())
		must.Eq(t, syncpolicy.None, ar.GetUpdatePriority(a))
		stored, err := h.db.GetAcknowledgedState("a1")
		must.NoError(t, err)
		must.Eq(t, structs.AllocClientStatusRunning, stored.ClientStatus)
		h.trs["web"].exit(true)
		synctest.Wait()
		must.Eq(t, syncpolicy.Urgent, ar.GetUpdatePriority(ar.Alloc()))
		h.finish()
	})
}
