package status

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/structs"
)

func TestKillRule_AR9(t *testing.T) {
	cases := []struct {
		name   string
		tasks  []*structs.Task
		states states
		want   *Kill // nil: no rule applies
	}{
		{"all running", []*structs.Task{task("a"), task("b")}, states{"a": running(), "b": running()}, nil},
		{"no states yet", []*structs.Task{task("a"), prestartSidecar("s")}, states{}, nil},
		{"sibling failed names the first failed by name",
			[]*structs.Task{task("web"), task("zed"), task("api"), task("db")},
			states{"web": running(), "zed": failed(), "api": running(), "db": failed()},
			&Kill{Type: structs.TaskSiblingFailed, FailedSibling: "db", Recipients: []string{"api", "web"}}},
		{"failed leader is a failed sibling",
			[]*structs.Task{leader("lead"), task("b")},
			states{"lead": failed(), "b": running()},
			&Kill{Type: structs.TaskSiblingFailed, FailedSibling: "lead", Recipients: []string{"b"}}},
		{"leader dead",
			[]*structs.Task{leader("lead"), task("b"), prestartSidecar("s")},
			states{"lead": complete(), "b": running(), "s": running()},
			&Kill{Type: structs.TaskLeaderDead, Recipients: []string{"b", "s"}}},
		{"leader dead wins over a failed sibling",
			[]*structs.Task{leader("lead"), task("a"), task("c")},
			states{"lead": complete(), "a": failed(), "c": running()},
			&Kill{Type: structs.TaskLeaderDead, Recipients: []string{"c"}}},
		{"completed non-leader kills nothing",
			[]*structs.Task{task("a"), task("b")},
			states{"a": complete(), "b": running()}, nil},
		{"main tasks dead with sidecars alive",
			[]*structs.Task{task("web"), poststartSidecar("log"), prestartSidecar("proxy"), prestart("init")},
			states{"web": complete(), "log": running(), "proxy": running(), "init": complete()},
			&Kill{Type: structs.TaskMainDead, Recipients: []string{"log", "proxy"}}},
		{"main tasks dead, non-sidecar poststart alive",
			[]*structs.Task{task("web"), poststart("notify"), prestartSidecar("proxy")},
			states{"web": complete(), "notify": running(), "proxy": running()}, nil},
		{"only sidecars in group never trigger Main Tasks Dead",
			[]*structs.Task{prestartSidecar("a"), poststartSidecar("b")},
			states{"a": running(), "b": running()}, nil},
		{"everything dead: nobody to kill",
			[]*structs.Task{task("a"), task("b")},
			states{"a": failed(), "b": complete()}, nil},
		{"poststop failure is ignored",
			[]*structs.Task{task("web"), poststop("cleanup")},
			states{"web": running(), "cleanup": failed()}, nil},
		{"poststop is no recipient",
			[]*structs.Task{task("web"), task("api"), poststop("cleanup")},
			states{"web": failed(), "api": running(), "cleanup": pending()},
			&Kill{Type: structs.TaskSiblingFailed, FailedSibling: "web", Recipients: []string{"api"}}},
		{"PAUSE-8 paused tasks trigger nothing",
			[]*structs.Task{task("web"), task("api"), prestartSidecar("proxy")},
			states{"web": paused(true), "api": paused(false), "proxy": running()}, nil},
		{"PAUSE-8 paused main keeps sidecars alive",
			[]*structs.Task{task("web"), task("batch"), prestartSidecar("proxy")},
			states{"web": paused(true), "batch": complete(), "proxy": running()}, nil},
		{"PAUSE-8 paused tasks receive a sibling kill",
			[]*structs.Task{task("web"), task("api")},
			states{"web": paused(true), "api": failed()},
			&Kill{Type: structs.TaskSiblingFailed, FailedSibling: "api", Recipients: []string{"web"}}},
		{"recipients in kill order, leader first",
			[]*structs.Task{prestartSidecar("a-side"), task("b"), leader("z-lead"), task("c"), prestart("a-init")},
			states{"a-init": failed(), "a-side": running(), "b": pending(), "z-lead": running()},
			&Kill{Type: structs.TaskSiblingFailed, FailedSibling: "a-init", Recipients: []string{"z-lead", "b", "c", "a-side"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := KillRule(tc.tasks, tc.states)
			if tc.want == nil {
				must.False(t, ok, must.Sprintf("unexpected kill %+v", got))
				return
			}
			must.True(t, ok)
			if diff := cmp.Diff(*tc.want, got); diff != "" {
				t.Fatalf("KillRule mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestKillOrder_AR9_DET2(t *testing.T) {
	tasks := []*structs.Task{
		prestartSidecar("proxy"), task("web"), poststop("cleanup"), leader("lead"), nil,
		prestart("init"), poststartSidecar("log"), task("api"), poststart("notify"),
		{Name: "side-lead", Leader: true, Lifecycle: &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPoststart, Sidecar: true}},
	}
	got := KillOrder(tasks)
	want := KillPhases{
		Leader:   []string{"lead", "side-lead"},
		Main:     []string{"api", "init", "notify", "web"},
		Sidecars: []string{"log", "proxy"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("KillOrder mismatch (-want +got):\n%s", diff)
	}
	must.Eq(t, []string{"lead", "side-lead", "api", "init", "notify", "web", "log", "proxy"}, got.All())
}

func TestKillEvent_AR9_DATA8(t *testing.T) {
	cases := []struct {
		kill        Kill
		wantDisplay string
		wantDetails map[string]string
	}{
		{Kill{Type: structs.TaskSiblingFailed, FailedSibling: "db"}, `Task's sibling "db" failed`, map[string]string{"failed_sibling": "db"}},
		{Kill{Type: structs.TaskLeaderDead}, "Leader Task in Group dead", map[string]string{}},
		{Kill{Type: structs.TaskMainDead}, "Main tasks in the group died", map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.kill.Type, func(t *testing.T) {
			ev := tc.kill.Event(t0)
			ev.PopulateDisplayMessage()
			must.EqOp(t, tc.kill.Type, ev.Type)
			must.EqOp(t, t0.UnixNano(), ev.Time)
			must.EqOp(t, tc.wantDisplay, ev.DisplayMessage)
			must.EqOp(t, tc.kill.FailedSibling, ev.FailedSibling)
			must.MapEq(t, tc.wantDetails, ev.Details)
		})
	}
}

// TestKillRetryDelay: AR-6's min(4^i × 5s, 2m), spelled out.
func TestKillRetryDelay(t *testing.T) {
	for i, want := range []time.Duration{5 * time.Second, 20 * time.Second, 80 * time.Second, 2 * time.Minute, 2 * time.Minute, 2 * time.Minute} {
		if got := KillRetryDelay(i); got != want {
			t.Errorf("KillRetryDelay(%d) = %v, want %v", i, got, want)
		}
	}
}
