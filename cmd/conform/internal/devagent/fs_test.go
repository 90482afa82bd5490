package devagent

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// fsBudget bounds every wait for a log frame (a bound, never an assertion
// on how long anything took).
const fsBudget = 10 * time.Second

// rawJob is a raw_exec job of one task "t" running sh -c script.
func rawJob(id, typ, script string) *api.Job {
	job := &api.Job{ID: &id, Name: &id, Type: &typ}
	tg := api.NewTaskGroup("g", 1)
	task := api.NewTask("t", "raw_exec")
	task.Config = map[string]any{"command": "/bin/sh", "args": []string{"-c", script}}
	tg.AddTask(task)
	job.AddTaskGroup(tg)
	return job
}

// runRaw registers job and returns its alloc once cond holds for it.
func runRaw(t *testing.T, c *api.Client, job *api.Job, what string, cond func(*api.Allocation) bool) *api.Allocation {
	t.Helper()
	_, _, err := c.Jobs().Register(job, nil)
	must.NoError(t, err)
	var al *api.Allocation
	eventually(t, what, func() bool {
		stubs, _, err := c.Jobs().Allocations(*job.ID, false, nil)
		if err != nil || len(stubs) != 1 {
			return false
		}
		al, _, err = c.Allocations().Info(stubs[0].ID, nil)
		return err == nil && cond(al)
	})
	return al
}

// readFrames reads a Logs stream until it ends and joins its data.
func readFrames(t *testing.T, frames <-chan *api.StreamFrame, errs <-chan error) string {
	t.Helper()
	var b strings.Builder
	for {
		select {
		case f, ok := <-frames:
			if !ok {
				return b.String()
			}
			b.Write(f.Data)
		case err := <-errs:
			t.Fatalf("logs: %v", err)
		case <-time.After(fsBudget):
			t.Fatalf("logs did not end; got %q", b.String())
		}
	}
}

// TestDevAgentCloseEndsFollow: a follow still open when the agent stops
// does not hold Close up: its stream ends and Close succeeds.
func TestDevAgentCloseEndsFollow(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("raw_exec runs tasks on Linux only")
	}
	a := startTest(t, Config{Path: "/usr/bin:/bin"})
	c := apiClient(t, a)
	al := runRaw(t, c, rawJob("forever", "service", "echo up; exec sleep 3600"),
		"the task to run", func(al *api.Allocation) bool { return al.ClientStatus == "running" })
	frames, errs := c.AllocFS().Logs(al, true, "t", api.FSLogNameStdout, api.OriginStart, 0, make(chan struct{}), nil)
	select {
	case f := <-frames:
		must.Eq(t, "up\n", string(f.Data))
	case err := <-errs:
		t.Fatalf("logs: %v", err)
	case <-time.After(fsBudget):
		t.Fatal("no frame within the budget")
	}
	ctx, cancel := context.WithTimeout(context.Background(), fsBudget)
	defer cancel()
	must.NoError(t, a.Close(ctx))
	must.Eq(t, "", readFrames(t, frames, errs))
}
