package drivers

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/shoenig/test/must"
)

// namedDriver is a Driver that only has a name.
type namedDriver struct {
	Driver
	name string
}

func (d *namedDriver) Name() string { return d.name }

func TestRegistryDispense(t *testing.T) {
	a, b := &namedDriver{name: "a"}, &namedDriver{name: "b"}
	r := NewRegistry(a, nil, b)
	got, err := r.Dispense("a")
	must.NoError(t, err)
	must.True(t, got == Driver(a))
	must.Eq(t, []string{"a", "b"}, r.Names())

	_, err = r.Dispense("docker")
	must.ErrorIs(t, err, ErrDriverNotFound)
	must.EqError(t, err, `dispense driver "docker": driver not found`)
}

func TestRegistryReplaces(t *testing.T) {
	old, fresh := &namedDriver{name: "mock_driver"}, &namedDriver{name: "mock_driver"}
	r := NewRegistry(old)
	r.Register(fresh)
	got, err := r.Dispense("mock_driver")
	must.NoError(t, err)
	must.True(t, got == Driver(fresh))
	must.Eq(t, []string{"mock_driver"}, r.Names())
}

func TestRegistryZeroValue(t *testing.T) {
	var r Registry
	must.Eq(t, []string{}, r.Names())
	_, err := r.Dispense("x")
	must.ErrorIs(t, err, ErrDriverNotFound)
	r.Register(&namedDriver{name: "x"})
	_, err = r.Dispense("x")
	must.NoError(t, err)
}

// TestRegistryConcurrent is judged by the race detector.
func TestRegistryConcurrent(t *testing.T) {
	r := NewRegistry()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				name := fmt.Sprintf("d%d", (i+j)%4)
				r.Register(&namedDriver{name: name})
				_, _ = r.Dispense(name)
				_ = r.Names()
			}
		})
	}
	wg.Wait()
	must.Eq(t, []string{"d0", "d1", "d2", "d3"}, r.Names())
}

func TestExitResultSuccessful(t *testing.T) {
	cases := []struct {
		name string
		r    *ExitResult
		want bool
	}{
		{"nil", nil, false},
		{"clean", &ExitResult{}, true},
		{"code", &ExitResult{ExitCode: 1}, false},
		{"signal", &ExitResult{Signal: 9}, false},
		{"error", &ExitResult{Err: context.Canceled}, false},
		{"oom only", &ExitResult{OOMKilled: true}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.Eq(t, tc.want, tc.r.Successful())
		})
	}
	var nilResult *ExitResult
	must.Nil(t, nilResult.Copy())
	r := &ExitResult{ExitCode: 3}
	c := r.Copy()
	c.ExitCode = 4
	must.Eq(t, 3, r.ExitCode)
}

func TestTaskConfigCopyIsDeep(t *testing.T) {
	orig := &TaskConfig{
		ID: TaskID("a1", "web"), AllocID: "a1", Name: "web", Driver: "mock_driver",
		Config: map[string]any{
			"run_for":         "10s",
			"exit_on_signals": []any{"SIGINT"},
			"names":           []string{"x"},
			"nested":          map[string]any{"k": []any{1.0}},
			"labels":          map[string]string{"a": "b"},
		},
		Env: map[string]string{"A": "1"},
	}
	c := orig.Copy()
	must.Eq(t, "a1/web", c.ID)
	c.Config["run_for"] = "1s"
	c.Config["exit_on_signals"].([]any)[0] = "SIGTERM"
	c.Config["names"].([]string)[0] = "y"
	c.Config["nested"].(map[string]any)["k"].([]any)[0] = 2.0
	c.Config["labels"].(map[string]string)["a"] = "c"
	c.Env["A"] = "2"

	must.Eq(t, "10s", orig.Config["run_for"].(string))
	must.Eq(t, "SIGINT", orig.Config["exit_on_signals"].([]any)[0].(string))
	must.Eq(t, "x", orig.Config["names"].([]string)[0])
	must.Eq(t, 1.0, orig.Config["nested"].(map[string]any)["k"].([]any)[0].(float64))
	must.Eq(t, "b", orig.Config["labels"].(map[string]string)["a"])
	must.Eq(t, "1", orig.Env["A"])

	var nilCfg *TaskConfig
	must.Nil(t, nilCfg.Copy())
	bare := (&TaskConfig{ID: "x"}).Copy()
	must.Nil(t, bare.Config)
	must.Nil(t, bare.Env)
}

func TestTaskHandleCopy(t *testing.T) {
	h := &TaskHandle{Version: 1, Driver: "mock_driver", TaskID: "a/b", DriverState: []byte("{}")}
	c := h.Copy()
	c.DriverState[0] = 'x'
	must.Eq(t, "{}", string(h.DriverState))
	var nilHandle *TaskHandle
	must.Nil(t, nilHandle.Copy())
}
