package syncpolicy

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

var t0 = time.Date(2024, 3, 10, 1, 30, 0, 0, time.UTC)

// baseAlloc is a running alloc with one task, a deployment and a network
// status, so that every SYNC-2 field has something to differ from.
func baseAlloc() *structs.Allocation {
	healthy := true
	ts := structs.NewTaskState()
	ts.SetState(structs.TaskStateRunning, t0)
	ev := structs.NewTaskEvent(structs.TaskStarted, t0)
	ev.Details["message"] = "started"
	ts.AppendEvent(ev)
	return &structs.Allocation{
		ID:                "a1",
		NodeID:            "n1",
		Namespace:         "default",
		JobID:             "job",
		ClientStatus:      structs.AllocClientStatusRunning,
		ClientDescription: "Tasks are running",
		TaskStates:        map[string]*structs.TaskState{"web": ts},
		DeploymentStatus:  &structs.AllocDeploymentStatus{Healthy: &healthy, Timestamp: t0, ModifyIndex: 7},
		NetworkStatus:     &structs.AllocNetworkStatus{InterfaceName: "eth0", Address: "10.0.0.1"},
		CreateIndex:       3,
		ModifyIndex:       9,
		AllocModifyIndex:  5,
	}
}

// TestSYNC2_UpdatePriority covers every SYNC-2 branch, for both the alloc
// and the AllocState form of the update.
func TestSYNC2_UpdatePriority(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(a *structs.Allocation) // applied to a copy of baseAlloc
		noAck  bool                        // nothing acknowledged yet
		want   Priority
	}{
		{name: "none acknowledged, failed is urgent", noAck: true,
			mutate: func(a *structs.Allocation) { a.ClientStatus = structs.AllocClientStatusFailed }, want: Urgent},
		{name: "none acknowledged, running is typical", noAck: true, want: Typical},
		{name: "none acknowledged, pending is typical", noAck: true,
			mutate: func(a *structs.Allocation) { a.ClientStatus = structs.AllocClientStatusPending }, want: Typical},
		{name: "none acknowledged, complete is typical", noAck: true,
			mutate: func(a *structs.Allocation) { a.ClientStatus = structs.AllocClientStatusComplete }, want: Typical},
		{name: "client status differs is urgent",
			mutate: func(a *structs.Allocation) { a.ClientStatus = structs.AllocClientStatusComplete }, want: Urgent},
		{name: "client status differs wins over description",
			mutate: func(a *structs.Allocation) {
				a.ClientStatus = structs.AllocClientStatusFailed
				a.ClientDescription = "Failed tasks"
			}, want: Urgent},
		{name: "description differs is typical",
			mutate: func(a *structs.Allocation) { a.ClientDescription = "changed" }, want: Typical},
		{name: "deployment status set to nil is typical",
			mutate: func(a *structs.Allocation) { a.DeploymentStatus = nil }, want: Typical},
		{name: "deployment health differs is typical",
			mutate: func(a *structs.Allocation) { h := false; a.DeploymentStatus.Healthy = &h }, want: Typical},
		{name: "network status differs is typical",
			mutate: func(a *structs.Allocation) { a.NetworkStatus.Address = "10.0.0.2" }, want: Typical},
		{name: "network status set to nil is typical",
			mutate: func(a *structs.Allocation) { a.NetworkStatus = nil }, want: Typical},
		{name: "task state differs is typical",
			mutate: func(a *structs.Allocation) { a.TaskStates["web"].State = structs.TaskStateDead }, want: Typical},
		{name: "task added is typical",
			mutate: func(a *structs.Allocation) { a.TaskStates["side"] = structs.NewTaskState() }, want: Typical},
		{name: "task paused differs is typical (DATA-6 adds Paused)",
			mutate: func(a *structs.Allocation) {
				a.TaskStates["web"].Paused = structs.TaskScheduleStateSchedulePause
			}, want: Typical},
		{name: "task restarts differ is typical",
			mutate: func(a *structs.Allocation) { a.TaskStates["web"].Restarts++ }, want: Typical},
		{name: "event details differ is typical",
			mutate: func(a *structs.Allocation) { a.TaskStates["web"].Events[0].Details["message"] = "x" }, want: Typical},
		{name: "event appended is typical",
			mutate: func(a *structs.Allocation) {
				a.TaskStates["web"].AppendEvent(structs.NewTaskEvent(structs.TaskStarted, t0.Add(time.Second)))
			}, want: Typical},
		{name: "event field outside DATA-6 equality is none",
			mutate: func(a *structs.Allocation) { a.TaskStates["web"].Events[0].ExitCode = 3 }, want: None},
		{name: "server-side fields only is none",
			mutate: func(a *structs.Allocation) {
				a.ModifyIndex, a.AllocModifyIndex, a.DesiredStatus = 99, 98, structs.AllocDesiredStatusStop
			}, want: None},
		{name: "unchanged is none", want: None},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var acked *structs.AllocState
			if !tc.noAck {
				acked = baseAlloc().ClientState()
			}
			update := baseAlloc()
			if tc.mutate != nil {
				tc.mutate(update)
			}
			must.Eq(t, tc.want, UpdatePriority(update, acked), must.Sprintf("UpdatePriority"))
			must.Eq(t, tc.want, UpdatePriority(update.Stripped(), acked), must.Sprintf("UpdatePriority(stripped)"))
			must.Eq(t, tc.want, StatePriority(update.ClientState(), acked), must.Sprintf("StatePriority"))
		})
	}
}

func TestSYNC2_NilUpdateIsNone(t *testing.T) {
	must.Eq(t, None, UpdatePriority(nil, nil))
	must.Eq(t, None, StatePriority(nil, baseAlloc().ClientState()))
}

func TestSYNC2_PriorityValuesAndNames(t *testing.T) {
	must.Eq(t, 0, int(None))
	must.Eq(t, 1, int(Typical))
	must.Eq(t, 2, int(Urgent))
	must.Eq(t, "none", None.String())
	must.Eq(t, "typical", Typical.String())
	must.Eq(t, "urgent", Urgent.String())
	must.Eq(t, "priority(7)", Priority(7).String())
}
