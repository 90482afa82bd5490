package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/agentcmd"
	"github.com/allocsim/allocsim/cmd/conform/internal/devagent"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// e2eBudget bounds the whole end-to-end test (it is a bound on polling,
// never an assertion on how long anything took).
const e2eBudget = 25 * time.Second

// TestEndToEndScheduledJob is issue 6's end-to-end test: `conform agent
// -dev` on a free loopback port, a mock_driver job whose schedule window
// is open now submitted with `conform job run`, then a pause and a run
// forced with `conform alloc pause`, each seen in the pause state
// (-status, API-3) and in the task events (PAUSE-4, PAUSE-5).
func TestEndToEndScheduledJob(t *testing.T) {
	deadline := time.Now().Add(e2eBudget)
	addr := startDevAgent(t)
	env := testEnv(t)
	conform := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr, env)
		return code, stdout.String(), stderr.String()
	}

	// SCHED-5: the window opened at the start of the previous minute and
	// closes two hours from now, UTC; the task runs at once.
	now := time.Now().UTC()
	start, end := now.Add(-time.Minute), now.Add(2*time.Hour)
	jobFile := filepath.Join(t.TempDir(), "e2e.hcl")
	must.NoError(t, os.WriteFile(jobFile, fmt.Appendf(nil, `job "e2e" {
  group "g" {
    task "sleeper" {
      driver = "mock_driver"
      config {
        run_for = "1h"
      }
      schedule {
        cron {
          start    = "%d %d * * * *"
          end      = "%d %d"
          timezone = "UTC"
        }
      }
    }
  }
}
`, start.Minute(), start.Hour(), end.Minute(), end.Hour()), 0o644))

	code, stdout, stderr := conform("job", "run", "-address", addr, jobFile)
	must.Eq(t, 0, code, must.Sprint(stderr))
	must.StrHasPrefix(t, `Job "e2e" registered: evaluation `, stdout)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	must.Len(t, 4, lines, must.Sprint(stdout))
	short := strings.Fields(lines[3])[0]
	must.Len(t, 8, []rune(short))

	client, err := api.NewClient(&api.Config{Address: addr})
	must.NoError(t, err)
	stubs, _, err := client.Jobs().Allocations("e2e", false, nil)
	must.NoError(t, err)
	must.Len(t, 1, stubs)
	allocID := stubs[0].ID
	must.StrHasPrefix(t, short, allocID)

	// waitFor polls the alloc until cond holds or the budget is spent.
	waitFor := func(what string, cond func(*api.Allocation) bool) *api.Allocation {
		t.Helper()
		for time.Now().Before(deadline) {
			al, _, err := client.Allocations().Info(allocID, nil)
			must.NoError(t, err)
			if cond(al) {
				return al
			}
			time.Sleep(25 * time.Millisecond)
		}
		t.Fatalf("end-to-end budget spent waiting for %s", what)
		return nil
	}
	displays := func(al *api.Allocation) []string {
		var out []string
		if ts := al.TaskStates["sleeper"]; ts != nil {
			for _, ev := range ts.Events {
				out = append(out, ev.Type+": "+ev.DisplayMessage)
			}
		}
		return out
	}
	count := func(al *api.Allocation, event string) int {
		n := 0
		for _, d := range displays(al) {
			if d == event {
				n++
			}
		}
		return n
	}
	const started = "Started: Task started by client"

	waitFor("the task to run", func(al *api.Allocation) bool {
		return al.ClientStatus == "running" && count(al, started) == 1
	})
	status := func(want string) {
		t.Helper()
		code, stdout, stderr := conform("alloc", "pause", "-address", addr, "-status", short, "sleeper")
		must.Eq(t, 0, code, must.Sprint(stderr))
		must.Eq(t, fmt.Sprintf("Pause state: %q\n", want), stdout)
	}
	status("") // inside the window, following the schedule (PAUSE-1)

	// Force a pause: PAUSE-4 `Pausing`, PAUSE-5 stop and `Restarting`.
	code, stdout, stderr = conform("alloc", "pause", "-address", addr, short, "sleeper")
	must.Eq(t, 0, code, must.Sprint(stderr))
	must.Eq(t, "", stdout+stderr)
	status("force_pause")
	waitFor("the task to pause", func(al *api.Allocation) bool {
		return al.ClientStatus == "pending" && count(al, "Restarting: Task restarting in 0s") == 1
	})

	// Force a run: `Running` then a second `Started`.
	code, stdout, stderr = conform("alloc", "pause", "-address", addr, "-state=run", "-task=sleeper", short)
	must.Eq(t, 0, code, must.Sprint(stderr))
	must.Eq(t, "", stdout+stderr)
	status("force_run")
	al := waitFor("the task to run again", func(al *api.Allocation) bool {
		return al.ClientStatus == "running" && count(al, started) == 2
	})
	must.Eq(t, []string{
		"Received: Task received by client",
		"Task Setup: Building Task Directory",
		started,
		"Pausing: Pausing due to override",
		"Terminated: Exit Code: 0, Signal: 2",
		"Restarting: Task restarting in 0s",
		"Running: Running due to override",
		started,
	}, displays(al))

	// Back to the schedule: the window is open, so it keeps running.
	code, _, stderr = conform("alloc", "pause", "-address", addr, "-state=scheduled", short, "sleeper")
	must.Eq(t, 0, code, must.Sprint(stderr))
	status("")
}

// startDevAgent runs `conform agent -dev` in-process on a free loopback
// port and returns its address; the test's cleanup stops it and checks
// that it stopped cleanly.
func startDevAgent(t *testing.T) string {
	t.Helper()
	stop := make(chan struct{})
	ready := make(chan string, 1)
	type result struct {
		err    error
		stdout string
	}
	done := make(chan result, 1)
	cfg := agentcmd.Config{
		Getenv:  func(string) string { return "" },
		Local:   time.UTC,
		Stop:    stop,
		Started: func(a *devagent.Agent) { ready <- a.Addr() },
	}
	go func() {
		var stdout, stderr bytes.Buffer
		err := cfg.Run("agent", []string{"-dev", "-http-addr", "127.0.0.1:0", "-log-level", "error"}, &stdout, &stderr)
		done <- result{err: err, stdout: stdout.String()}
	}()
	var addr string
	select {
	case addr = <-ready:
	case r := <-done:
		t.Fatalf("conform agent -dev exited before serving: %v", r.err)
	}
	t.Cleanup(func() {
		close(stop)
		r := <-done
		must.NoError(t, r.err)
		must.StrContains(t, r.stdout, "==> Stopped\n")
	})
	return addr
}
