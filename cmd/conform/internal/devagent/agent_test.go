package devagent

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"

	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
	"go.uber.org/goleak"
)

func startTest(t *testing.T, cfg Config) *Agent {
	t.Helper()
	if cfg.HTTPAddr == "" {
		cfg.HTTPAddr = "127.0.0.1:0"
	}
	a, err := Start(cfg)
	must.NoError(t, err)
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	return a
}

func apiClient(t *testing.T, a *Agent) *api.Client {
	t.Helper()
	c, err := api.NewClient(&api.Config{Address: a.Addr()})
	must.NoError(t, err)
	return c
}

func mockJob(id string, runFor string) *api.Job {
	return &api.Job{
		ID: &id, Name: &id, Type: new("service"),
		TaskGroups: []*api.TaskGroup{{
			Name: new("g"), Count: new(1),
			Tasks: []*api.Task{{
				Name: "t", Driver: "mock_driver",
				Config: map[string]any{"run_for": runFor},
			}},
		}},
	}
}

// eventually polls cond every 20 ms for at most 10 s (wall clock; a bound,
// never an assertion on durations).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for range 500 {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// eventTypes lists the types of a task's events, read through the API.
func eventTypes(t *testing.T, c *api.Client, allocID, task string) []string {
	t.Helper()
	al, _, err := c.Allocations().Info(allocID, nil)
	must.NoError(t, err)
	var out []string
	if ts := al.TaskStates[task]; ts != nil {
		for _, ev := range ts.Events {
			out = append(out, ev.Type)
		}
	}
	return out
}

// TestCloseStopsAllocs: Close stops the job and waits for the runner; the
// temporary data dir is gone, a given one stays.
func TestCloseStopsAllocs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	a := startTest(t, Config{DataDir: dir})
	c := apiClient(t, a)
	_, _, err := c.Jobs().Register(mockJob("demo", "1h"), nil)
	must.NoError(t, err)
	ids := a.srv.NodeAllocIDs(a.NodeID())
	must.Len(t, 1, ids)
	var ar interfaces.AllocRunner
	eventually(t, "runner", func() bool {
		var ok bool
		ar, ok = a.client.AllocRunner(ids[0])
		return ok
	})
	must.NoError(t, a.Close(context.Background()))
	must.True(t, closed(ar.WaitCh()))
	must.True(t, closed(ar.ShutdownCh()))
	must.Eq(t, "stop", a.srv.Alloc(ids[0]).DesiredStatus)
	must.FileExists(t, filepath.Join(dir, "client", "state.db"))
	must.NoError(t, a.Close(context.Background()), must.Sprint("Close is idempotent"))
	_, err = http.Get(a.Addr() + "/v1/allocations")
	must.Error(t, err)

	// A restart on the same data dir restores the (finished) alloc from
	// the state DB (STATE-3); the new server does not know it, so the
	// client drops it.
	b := startTest(t, Config{DataDir: dir})
	must.NoError(t, b.Close(context.Background()))
}

// TestCloseTimesOut: a task that ignores its kill signal outlives the stop
// timeout; Close names its alloc.
func TestCloseTimesOut(t *testing.T) {
	a := startTest(t, Config{StopTimeout: 50 * time.Millisecond})
	c := apiClient(t, a)
	job := mockJob("stubborn", "1h")
	task := job.TaskGroups[0].Tasks[0]
	task.Config["ignore_signals"] = []string{"SIGINT"}
	task.KillTimeout = new(20 * time.Second)
	_, _, err := c.Jobs().Register(job, nil)
	must.NoError(t, err)
	ids := a.srv.NodeAllocIDs(a.NodeID())
	must.Len(t, 1, ids)
	eventually(t, "task running", func() bool {
		return slices.Contains(eventTypes(t, c, ids[0], "t"), "Started")
	})
	err = a.Close(context.Background())
	must.ErrorContains(t, err, "allocs still running after 50ms: "+ids[0])
}

func TestStartErrors(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)

	_, err := Start(Config{Profile: "oss"})
	must.EqError(t, err, `unknown profile "oss": want ent or ce`)

	file := filepath.Join(tmp, "file")
	must.NoError(t, os.WriteFile(file, nil, 0o600))
	_, err = Start(Config{DataDir: filepath.Join(file, "sub"), HTTPAddr: "127.0.0.1:0"})
	must.ErrorContains(t, err, "making the data dir")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must.NoError(t, err)
	defer ln.Close()
	_, err = Start(Config{HTTPAddr: ln.Addr().String()})
	must.ErrorContains(t, err, "listening for the HTTP API")
	left, err := os.ReadDir(tmp)
	must.NoError(t, err)
	must.Len(t, 1, left, must.Sprint("only the file: the failed start removed its temporary dir"))
}

// TestCloseEndsEveryGoroutine: after Close, nothing the agent started is
// left running (the client's loops, the runners, the HTTP server).
func TestCloseEndsEveryGoroutine(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	a, err := Start(Config{HTTPAddr: "127.0.0.1:0"})
	must.NoError(t, err)
	tr := &http.Transport{}
	c, err := api.NewClient(&api.Config{Address: a.Addr(), HttpClient: &http.Client{Transport: tr}})
	must.NoError(t, err)
	_, _, err = c.Jobs().Register(mockJob("demo", "1h"), nil)
	must.NoError(t, err)
	eventually(t, "task running", func() bool {
		ids := a.srv.NodeAllocIDs(a.NodeID())
		if len(ids) != 1 {
			return false
		}
		ar, ok := a.client.AllocRunner(ids[0])
		return ok && ar.AllocState().ClientStatus == "running"
	})
	tr.CloseIdleConnections()
	must.NoError(t, a.Close(context.Background()))
}
