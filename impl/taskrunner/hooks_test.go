package taskrunner

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// recorder is a test hook of every kind but prestart that logs its calls.
type recorder struct {
	mu    sync.Mutex
	calls []string
	fail  error
}

var (
	_ interfaces.TaskPoststartHook = (*recorder)(nil)
	_ interfaces.TaskPreKillHook   = (*recorder)(nil)
	_ interfaces.TaskExitedHook    = (*recorder)(nil)
	_ interfaces.TaskUpdateHook    = (*recorder)(nil)
	_ interfaces.TaskStopHook      = (*recorder)(nil)
)

func (r *recorder) Name() string { return "recorder" }
func (r *recorder) log(s string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, s)
	return r.fail
}
func (r *recorder) Poststart(context.Context) error { return r.log("poststart") }
func (r *recorder) PreKill()                        { _ = r.log("prekill") }
func (r *recorder) Exited(context.Context) error    { return r.log("exited") }
func (r *recorder) Update(context.Context, *structs.Allocation) error {
	return r.log("update")
}
func (r *recorder) Stop(context.Context) error { return r.log("stop") }
func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

// TestHookKinds: poststart after the start, prekill before a pause stop
// and a kill, exited after each exit, update on Update, stop once at the
// end (AR-5). Hook errors are logged, never fatal.
func TestHookKinds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := scheduledHarness(t, "0 8 * * * *", "0 9")
		tr := h.newTR()
		rec := &recorder{fail: errors.New("hook trouble")}
		tr.hooks = append(tr.hooks, rec)
		tr.Start()
		synctest.Wait()
		must.Eq(t, []string{"poststart"}, rec.got())
		h.advanceTo(at(9, 0)) // pause stop
		must.Eq(t, []string{"poststart", "prekill", "exited"}, rec.got())
		tr.Update(h.alloc)
		must.NoError(t, tr.SetPauseState(structs.TaskScheduleStateForceRun))
		synctest.Wait()
		must.NoError(t, h.kill(tr))
		must.Eq(t, []string{"poststart", "prekill", "exited", "update", "poststart", "prekill", "exited", "stop"}, rec.got())
		tr.runStopHooks()
		must.Eq(t, 8, len(rec.got()), must.Sprint("stop hooks run once"))
	})
}

// taskHookKinds are the task hook kinds of impl/interfaces, in the order
// kindsOf lists them, with the SPEC AR-5 word for each.
var taskHookKinds = []struct {
	kind string
	is   func(interfaces.TaskHook) bool
}{
	{"prestart", func(h interfaces.TaskHook) bool { _, ok := h.(interfaces.TaskPrestartHook); return ok }},
	{"poststart", func(h interfaces.TaskHook) bool { _, ok := h.(interfaces.TaskPoststartHook); return ok }},
	{"prekill", func(h interfaces.TaskHook) bool { _, ok := h.(interfaces.TaskPreKillHook); return ok }},
	{"exited", func(h interfaces.TaskHook) bool { _, ok := h.(interfaces.TaskExitedHook); return ok }},
	{"update", func(h interfaces.TaskHook) bool { _, ok := h.(interfaces.TaskUpdateHook); return ok }},
	{"stop", func(h interfaces.TaskHook) bool { _, ok := h.(interfaces.TaskStopHook); return ok }},
}

// kindsOf returns the kinds h implements, the way the runner finds them:
// by type assertion.
func kindsOf(h interfaces.TaskHook) []string {
	var out []string
	for _, k := range taskHookKinds {
		if k.is(h) {
			out = append(out, k.kind)
		}
	}
	return out
}

// TestHookInterfaces_AR5: the runner's hook slice holds the AR-5 hooks in
// order, each implementing exactly its kinds, for a task with and without
// a schedule (pause is registered for every task, SPEC-NOTES). Hooks are
// dispatched by type assertion, so a method whose signature drifts
// silently drops the hook from a kind; an extra kind would run the hook
// where AR-5 does not.
func TestHookInterfaces_AR5(t *testing.T) {
	type hookKinds struct {
		Name  string
		Kinds []string
	}
	want := []hookKinds{
		{"validate", []string{"prestart"}},
		{"task_dir", []string{"prestart"}},
		{"volumes", []string{"prestart"}},
		{"pause", []string{"update", "stop"}},
	}
	for _, tc := range []struct {
		name  string
		build func(*testing.T) *harness
	}{
		{"unscheduled", func(t *testing.T) *harness { return newHarness(t, structs.JobTypeService, nil, newTask(nil)) }},
		{"scheduled", func(t *testing.T) *harness { return scheduledHarness(t, "0 8 * * * *", "0 9") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tr := tc.build(t).newTR()
				var got []hookKinds
				for _, hk := range tr.hooks {
					got = append(got, hookKinds{hk.Name(), kindsOf(hk)})
				}
				must.Eq(t, want, got)
			})
		})
	}
}

// TestKindsOf: the detector sees every kind and invents none.
func TestKindsOf(t *testing.T) {
	must.Eq(t, []string{"poststart", "prekill", "exited", "update", "stop"}, kindsOf(&recorder{}))
	must.Eq(t, []string{"prestart"}, kindsOf(validateHook{}))
	must.SliceEmpty(t, kindsOf(nameOnly{}))
}

type nameOnly struct{}

func (nameOnly) Name() string { return "name_only" }

// TestConfig: required fields and documented zero values.
func TestConfig(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, structs.JobTypeService, nil, newTask(nil))
		for _, tc := range []struct {
			name  string
			clear func(c *Config)
			want  string
		}{
			{"Alloc", func(c *Config) { c.Alloc = nil }, "task runner config has no Alloc"},
			{"Task", func(c *Config) { c.Task = nil }, "task runner config has no Task"},
			{"Clock", func(c *Config) { c.Clock = nil }, "task runner config has no Clock"},
			{"StateDB", func(c *Config) { c.StateDB = nil }, "task runner config has no StateDB"},
			{"DriverManager", func(c *Config) { c.DriverManager = nil }, "task runner config has no DriverManager"},
			{"AllocDir", func(c *Config) { c.AllocDir = nil }, "task runner config has no AllocDir"},
			{"HookResources", func(c *Config) { c.HookResources = nil }, "task runner config has no HookResources"},
			{"group", func(c *Config) { a := *c.Alloc; a.TaskGroup = "nope"; c.Alloc = &a },
				`alloc "` + testAllocID + `" has no task group "nope"`},
		} {
			c := h.config()
			tc.clear(c)
			_, err := NewTaskRunner(c)
			must.EqError(t, err, tc.want, must.Sprint(tc.name))
		}
		_, err := NewTaskRunner(nil)
		must.EqError(t, err, "task runner config has no value")

		c := &Config{Alloc: h.alloc, Task: h.alloc.LookupTaskGroup().Tasks[0], StateDB: h.db,
			DriverManager: h.registry, AllocDir: h.allocDir, HookResources: h.res, Clock: h.clk}
		tr, err := NewTaskRunner(c)
		must.NoError(t, err)
		tr.Start()
		synctest.Wait()
		must.Eq(t, structs.TaskStateRunning, tr.TaskState().State, must.Sprint("nil channels count as closed"))
		must.NotNil(t, tr.LocalState().TaskHandle)
		must.NoError(t, tr.Kill(t.Context(), nil))
	})
}

func TestClassification(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tk := newTask(nil)
		tk.Leader = true
		tk.Lifecycle = &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPrestart, Sidecar: true}
		h := newHarness(t, "", nil, tk)
		tr := h.newTR()
		must.True(t, tr.IsLeader())
		must.True(t, tr.IsPrestartTask())
		must.True(t, tr.IsSidecarTask())
		must.False(t, tr.IsPoststartTask())
		must.False(t, tr.IsPoststopTask())
		must.Eq(t, structs.JobTypeService, jobType(&structs.Allocation{}))
	})
}

func TestValidateTask(t *testing.T) {
	for _, tc := range []struct {
		task *structs.Task
		want string
	}{
		{nil, "task has no name"},
		{&structs.Task{Driver: "d"}, "task has no name"},
		{&structs.Task{Name: "a"}, `task "a" has no driver`},
		{&structs.Task{Name: "a", Driver: "d", KillTimeout: -time.Second}, `task "a" has a negative kill timeout -1s`},
	} {
		must.EqError(t, validateTask(tc.task), tc.want)
	}
	must.NoError(t, validateTask(&structs.Task{Name: "a", Driver: "d"}))
}
