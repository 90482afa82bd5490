package status

import (
	"testing"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/structs"
)

func TestMayStart_AR9_StartOrder(t *testing.T) {
	group := []*structs.Task{
		prestart("init"), prestartSidecar("proxy"), task("web"), task("api"),
		poststart("notify"), poststartSidecar("log"), poststop("cleanup"),
	}
	cases := []struct {
		name   string
		states states
		want   []string // Startable
	}{
		{"nothing has run", states{}, []string{"init", "proxy"}},
		{"init running", states{"init": running(), "proxy": running()}, []string{"init", "proxy"}},
		{"init failed holds main back", states{"init": failed(), "proxy": running()}, []string{"init", "proxy"}},
		{"proxy not started holds main back", states{"init": complete(), "proxy": pending()}, []string{"init", "proxy"}},
		{"PAUSE-8 paused prestart sidecar holds main back", states{"init": complete(), "proxy": paused(false)}, []string{"init", "proxy"}},
		{"prestart done", states{"init": complete(), "proxy": running()}, []string{"api", "init", "proxy", "web"}},
		{"restarting sidecar that ran keeps main open", states{"init": complete(), "proxy": restarting()}, []string{"api", "init", "proxy", "web"}},
		{"one main started", states{"init": complete(), "proxy": running(), "web": running()}, []string{"api", "init", "proxy", "web"}},
		{"all main started", states{"init": complete(), "proxy": running(), "web": running(), "api": running()},
			[]string{"api", "init", "log", "notify", "proxy", "web"}},
		{"PAUSE-8 paused main holds poststart back", states{"init": complete(), "proxy": running(), "web": running(), "api": paused(false)},
			[]string{"api", "init", "proxy", "web"}},
		{"main that ran and paused counts as started", states{"init": complete(), "proxy": running(), "web": running(), "api": paused(true)},
			[]string{"api", "init", "log", "notify", "proxy", "web"}},
		{"one main dead", states{"init": complete(), "proxy": running(), "web": complete(), "api": running()},
			[]string{"api", "init", "log", "notify", "proxy", "web"}},
		{"all main dead", states{"init": complete(), "proxy": running(), "web": complete(), "api": failed()},
			[]string{"api", "cleanup", "init", "log", "notify", "proxy", "web"}},
		{"killed before main started: poststop runs", states{"init": failed(), "proxy": complete(), "web": complete(), "api": complete()},
			[]string{"cleanup", "init", "proxy"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.Eq(t, tc.want, Startable(group, tc.states))
		})
	}
}

func TestMayStart_AR9_Vacuous(t *testing.T) {
	// No prestart tasks: main starts at once; no main tasks: poststop
	// starts at once and poststart waits only for prestart.
	must.True(t, MayStart(task("web"), []*structs.Task{task("web")}, nil))
	onlyHooks := []*structs.Task{prestart("init"), poststart("p"), poststop("c")}
	must.True(t, MayStart(poststop("c"), onlyHooks, nil))
	must.False(t, MayStart(poststart("p"), onlyHooks, nil))
	must.True(t, MayStart(poststart("p"), onlyHooks, states{"init": complete()}))
}

func TestStage_AR9(t *testing.T) {
	cases := []struct {
		task *structs.Task
		want Stage
		name string
	}{
		{task("a"), StageMain, "main"},
		{hooked("a", "", true), StageMain, "main"},
		{prestart("a"), StagePrestart, "prestart"},
		{prestartSidecar("a"), StagePrestart, "prestart"},
		{poststart("a"), StagePoststart, "poststart"},
		{poststop("a"), StagePoststop, "poststop"},
	}
	for _, tc := range cases {
		must.EqOp(t, tc.want, StageOf(tc.task))
		must.EqOp(t, tc.name, tc.want.String())
	}
}
