package structs

import (
	"encoding/json"
	"testing"

	"github.com/shoenig/test/must"
)

func testAlloc() *Allocation {
	h := true
	ts := NewTaskState()
	ts.AppendEvent(NewTaskEvent(TaskReceived, t0))
	return &Allocation{
		ID: "a1", Name: "j.g[0]", NodeID: "n1", Namespace: "default", JobID: "j",
		Job: &Job{ID: "j"}, TaskGroup: "g", DesiredStatus: AllocDesiredStatusRun,
		ClientStatus: AllocClientStatusRunning, ClientDescription: "Tasks are running",
		TaskStates:       map[string]*TaskState{"web": ts},
		DeploymentStatus: &AllocDeploymentStatus{Healthy: &h, Timestamp: t0},
		NetworkStatus:    &AllocNetworkStatus{InterfaceName: "eth0", Address: "10.0.0.1"},
		CreateIndex:      1, ModifyIndex: 2, AllocModifyIndex: 3, CreateTime: 4, ModifyTime: 5,
	}
}

// TestStripped checks SYNC-1's stripped alloc: exactly the client fields.
func TestStripped(t *testing.T) {
	a := testAlloc()
	s := a.Stripped()
	b, err := json.Marshal(s)
	must.NoError(t, err)
	var m map[string]any
	must.NoError(t, json.Unmarshal(b, &m))
	must.Eq(t, any("a1"), m["ID"])
	must.Eq(t, any("n1"), m["NodeID"])
	must.Nil(t, m["Job"])
	must.Eq(t, any(""), m["JobID"])
	must.Eq(t, any(float64(0)), m["AllocModifyIndex"])
	must.Eq(t, any("running"), m["ClientStatus"])
	must.True(t, s.DeploymentStatus.Equal(a.DeploymentStatus))
	must.True(t, s.NetworkStatus.Equal(a.NetworkStatus))
	s.TaskStates["web"].State = TaskStateDead
	*s.DeploymentStatus.Healthy = false
	must.EqOp(t, TaskStatePending, a.TaskStates["web"].State)
	must.True(t, *a.DeploymentStatus.Healthy)
}

func TestTerminalPredicates(t *testing.T) {
	cases := []struct {
		desired, client string
		server, cli     bool
	}{
		{AllocDesiredStatusRun, AllocClientStatusRunning, false, false},
		{AllocDesiredStatusStop, AllocClientStatusRunning, true, false},
		{AllocDesiredStatusEvict, AllocClientStatusPending, true, false},
		{AllocDesiredStatusRun, AllocClientStatusComplete, false, true},
		{AllocDesiredStatusRun, AllocClientStatusFailed, false, true},
		{AllocDesiredStatusRun, AllocClientStatusLost, false, true},
		{AllocDesiredStatusRun, AllocClientStatusUnknown, false, false},
	}
	for _, tc := range cases {
		a := &Allocation{DesiredStatus: tc.desired, ClientStatus: tc.client}
		must.EqOp(t, tc.server, a.ServerTerminal(), must.Sprint(tc))
		must.EqOp(t, tc.cli, a.ClientTerminal(), must.Sprint(tc))
		must.EqOp(t, tc.server || tc.cli, a.Terminal(), must.Sprint(tc))
	}
}

func TestAllocCopies(t *testing.T) {
	a := testAlloc()
	a.Job = &Job{ID: "j", TaskGroups: []*TaskGroup{{Name: "g"}}}
	c := a.Copy()
	c.Job.TaskGroups[0].Name = "x"
	c.TaskStates["web"].Failed = true
	c.NetworkStatus.Address = "x"
	must.EqOp(t, "g", a.Job.TaskGroups[0].Name)
	must.False(t, a.TaskStates["web"].Failed)
	must.EqOp(t, "10.0.0.1", a.NetworkStatus.Address)
	must.NotNil(t, a.LookupTaskGroup())
	must.Nil(t, (*Allocation)(nil).LookupTaskGroup())
	s := a.CopySkipJob()
	must.True(t, s.Job == a.Job)
	must.Nil(t, (*Allocation)(nil).Copy())
	must.Nil(t, (*Allocation)(nil).CopySkipJob())

	cs := a.ClientState()
	cs2 := cs.Copy()
	cs2.TaskStates["web"].Restarts = 5
	must.EqOp(t, uint64(0), cs.TaskStates["web"].Restarts)
	must.Nil(t, (*AllocState)(nil).Copy())
	must.Eq(t, []string{"web"}, SortedTaskNames(a.TaskStates))
}

func TestStatusEquality(t *testing.T) {
	h1, h2 := true, false
	d := &AllocDeploymentStatus{Healthy: &h1, Timestamp: t0}
	must.True(t, d.Equal(d.Copy()))
	must.False(t, d.Equal(&AllocDeploymentStatus{Healthy: &h2, Timestamp: t0}))
	must.False(t, d.Equal(&AllocDeploymentStatus{Timestamp: t0}))
	must.False(t, d.Equal(nil))
	must.True(t, (*AllocDeploymentStatus)(nil).Equal(nil))
	must.Nil(t, (*AllocDeploymentStatus)(nil).Copy())
	n := &AllocNetworkStatus{Address: "a"}
	must.True(t, n.Equal(n.Copy()))
	must.False(t, n.Equal(&AllocNetworkStatus{Address: "b"}))
	must.False(t, n.Equal(nil))
	must.Nil(t, (*AllocNetworkStatus)(nil).Copy())
	must.True(t, TaskScheduleStateForcePause.Paused() && TaskScheduleStateSchedulePause.Paused())
	must.False(t, TaskScheduleStateForceRun.Paused() || TaskScheduleStateRun.Paused())
	must.True(t, TaskScheduleStateForceRun.Override() && TaskScheduleStateForcePause.Override())
	must.False(t, TaskScheduleStateSchedulePause.Override())
}
