package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/agentcmd"
	"github.com/allocsim/allocsim/cmd/conform/internal/devagent"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// envNomadCLI names HashiCorp's nomad binary TestRealNomadCLI runs.
const envNomadCLI = "NOMAD_CLI"

// Bounds of TestRealNomadCLI: one command (a monitor that never ends
// fails rather than hangs) and each wait for the agent. Never asserted on.
const (
	cliCommandTimeout = 60 * time.Second
	cliWaitBudget     = 30 * time.Second
)

// cliJob is the job the walk runs: sleeper (sleep 300, in a schedule
// window open from a minute ago to two hours from now, so that it can be
// paused) and greeter (prints a line, then one per SIGHUP).
const cliJob = `job "conform-cli" {
  group "g" {
    task "sleeper" {
      driver = "raw_exec"
      config {
        command = "sleep"
        args    = ["300"]
      }
      schedule {
        cron {
          start    = "%d %d * * * *"
          end      = "%d %d"
          timezone = "UTC"
        }
      }
    }
    task "greeter" {
      driver = "raw_exec"
      config {
        command = "sh"
        args    = ["-c", "trap 'echo got hup' HUP; echo hello from conform; while :; do sleep 1; done"]
      }
    }
  }
}
`

// cliResult is one run of the nomad binary.
type cliResult struct {
	args           []string
	code           int
	stdout, stderr string
}

func (r cliResult) String() string {
	return fmt.Sprintf("nomad %s\nexit %d\n-- stdout --\n%s-- stderr --\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
}

// TestRealNomadCLI walks HashiCorp's own nomad CLI (NOMAD_CLI, v1.10.5)
// through a job's life on `conform agent -dev`: every step must exit as
// Nomad's does against a Nomad agent and print its key output. It shows
// which of Nomad's endpoints the dev agent serves well enough for the
// real CLI (issue 14). Skipped without NOMAD_CLI; building the binary is
// in the README's developer notes.
func TestRealNomadCLI(t *testing.T) {
	bin := os.Getenv(envNomadCLI)
	if bin == "" {
		t.Skip("set NOMAD_CLI to a nomad v1.10.5 binary (README: developer notes) to run")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("NOMAD_CLI=%s: %v", bin, err)
	}
	agent := startCLIAgent(t)
	addr := agent.Addr()
	nomad := func(args ...string) cliResult { return runNomad(t, bin, addr, args...) }
	client, err := api.NewClient(&api.Config{Address: addr})
	must.NoError(t, err)

	if r := nomad("version"); !strings.Contains(r.stdout, "Nomad v1.10.5") {
		t.Logf("NOMAD_CLI is not Nomad v1.10.5; the walk may differ:\n%s", r)
	}
	now := time.Now().UTC()
	from, to := now.Add(-time.Minute), now.Add(2*time.Hour)
	jobFile := filepath.Join(t.TempDir(), "conform-cli.nomad.hcl")
	must.NoError(t, os.WriteFile(jobFile, fmt.Appendf(nil, cliJob, from.Minute(), from.Hour(), to.Minute(), to.Hour()), 0o644))

	// step runs one command as a subtest: want is its exit code, and each
	// of keys (regular expressions) must match its stdout or stderr.
	step := func(name string, want int, args []string, keys ...string) (cliResult, bool) {
		var r cliResult
		ok := t.Run(name, func(t *testing.T) {
			r = nomad(args...)
			checkCLI(t, r, want, keys...)
		})
		return r, ok
	}

	step("job validate", 0, []string{"job", "validate", jobFile}, `Job validation successful`)
	run, _ := step("job run", 0, []string{"job", "run", jobFile}, `Monitoring evaluation "[0-9a-f]{8}"`,
		`Evaluation "[0-9a-f]{8}" finished with status "complete"`)
	evalID := ""
	if m := regexp.MustCompile(`Monitoring evaluation "([0-9a-f]{8})"`).FindStringSubmatch(run.stdout); m != nil {
		evalID = m[1]
	}

	// The rest needs the alloc running; it is found with the official Go
	// client (SPEC §5 reads), whatever job run printed.
	alloc := waitAlloc(t, client, func(a *api.Allocation) bool {
		return a.ClientStatus == "running" && taskRunning(a, "sleeper") && taskRunning(a, "greeter")
	})
	id, short := alloc.ID, alloc.ID[:8]
	node := agent.NodeID()

	step("job status", 0, []string{"job", "status"}, `(?m)^conform-cli\s+service\s+\d+\s+running`)
	step("job status <job>", 0, []string{"job", "status", "conform-cli"}, `(?m)^ID\s+= conform-cli$`,
		`(?m)^Allocations$`, short)
	step("job inspect", 0, []string{"job", "inspect", "conform-cli"}, `"ID": "conform-cli"`, `"Driver": "raw_exec"`)
	step("status", 0, []string{"status"}, `(?m)^conform-cli\s`)
	step("alloc status <id>", 0, []string{"alloc", "status", id}, `(?m)^ID\s+= `+id+`$`,
		`Task "sleeper" is "running"`, `Task "greeter" is "running"`)
	if r, ok := step("alloc status -json", 0, []string{"alloc", "status", "-json", id}); ok {
		var got api.Allocation
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || got.ID != id {
			t.Errorf("alloc status -json: ID %q, error %v; want %s\n%s", got.ID, err, id, r)
		}
	}
	step("alloc signal", 0, []string{"alloc", "signal", "-s", "SIGHUP", id, "greeter"})
	pauseSteps(t, nomad, id)

	before := restarts(alloc, "sleeper")
	if _, ok := step("alloc restart", 0, []string{"alloc", "restart", id, "sleeper"}); ok {
		waitAlloc(t, client, func(a *api.Allocation) bool {
			return restarts(a, "sleeper") > before && taskRunning(a, "sleeper")
		})
	}
	step("alloc fs <id>", 0, []string{"alloc", "fs", id}, `(?m)alloc/$`, `(?m)sleeper/$`, `(?m)greeter/$`)
	step("alloc fs <id> alloc/logs/", 0, []string{"alloc", "fs", id, "alloc/logs/"}, `greeter\.stdout\.0`)
	t.Run("alloc logs", func(t *testing.T) {
		// The greeter has printed its line, then one for the SIGHUP.
		r := waitCLI(t, nomad, []string{"alloc", "logs", id, "greeter"}, func(r cliResult) bool {
			return r.code == 0 && strings.Contains(r.stdout, "got hup")
		})
		checkCLI(t, r, 0, `(?m)^hello from conform$`, `(?m)^got hup$`)
	})

	step("node status", 0, []string{"node", "status"}, `(?m)^`+node[:8]+`\s.*\sready$`)
	step("node status -self", 0, []string{"node", "status", "-self"}, `(?m)^ID\s+= `+node[:8], `(?m)^Status\s+= ready$`)
	evalPattern := evalID
	if evalPattern == "" {
		evalPattern = "[0-9a-f]{8}"
	}
	step("eval list", 0, []string{"eval", "list"}, `(?m)^`+evalPattern+`\s.*complete`)
	if evalID == "" {
		t.Errorf("eval status: no evaluation ID from job run")
	} else {
		step("eval status <id>", 0, []string{"eval", "status", evalID}, `(?m)^ID\s+= `+evalID, `(?m)^Status\s+= complete$`)
	}
	step("agent-info", 0, []string{"agent-info"}, `(?m)^client$`, `node_id\s+= `+node)
	step("server members", 0, []string{"server", "members"}, `\salive\s`)
	newCommandSteps(t, step, id, node)

	step("alloc stop", 0, []string{"alloc", "stop", id}, `Monitoring evaluation "[0-9a-f]{8}"`)
	step("job stop", 0, []string{"job", "stop", "-yes", "conform-cli"}, `Monitoring evaluation "[0-9a-f]{8}"`)
	if _, ok := step("job stop -purge", 0, []string{"job", "stop", "-yes", "-purge", "conform-cli"}); ok {
		step("job status after purge", 1, []string{"job", "status", "conform-cli"}, `No job\(s\) with prefix or ID "conform-cli" found`)
	}
	// Exit 255 is nomad job plan's error code.
	step("job plan", 255, []string{"job", "plan", jobFile}, `Unexpected response code: 501`, `job plan is not supported by this agent`)
}

// newCommandSteps are the commands of issue 24: each works or gets the
// agent's clear 501 `<command> is not supported by this agent` (exit 1,
// the CLI's for an API error), never a 404.
func newCommandSteps(t *testing.T, step func(string, int, []string, ...string) (cliResult, bool), id, node string) {
	step("job history", 0, []string{"job", "history", "conform-cli"}, `(?m)^Version\s+= 0$`, `(?m)^Submit Date\s+= `)
	step("job restart", 0, []string{"job", "restart", "-yes", "conform-cli"},
		`Restarting running tasks in allocation "`+id[:8]+`"`, `Job restarted successfully!`)
	for _, c := range []struct {
		op   string
		args []string
	}{
		{"job eval", []string{"job", "eval", "conform-cli"}},
		{"job scale", []string{"job", "scale", "conform-cli", "g", "2"}},
		{"alloc checks", []string{"alloc", "checks", id}},
		{"alloc exec", []string{"alloc", "exec", "-i=false", "-t=false", "-task", "sleeper", id, "true"}},
		{"node eligibility", []string{"node", "eligibility", "-disable", node}},
		{"node drain", []string{"node", "drain", "-enable", "-yes", node}},
		{"namespace list", []string{"namespace", "list"}},
		{"var list", []string{"var", "list"}},
		{"system gc", []string{"system", "gc"}},
	} {
		step(c.op, 1, c.args, `Unexpected response code: 501 \(`+c.op+` is not supported by this agent\)`)
	}
	if r, ok := step("operator metrics", 0, []string{"operator", "metrics"}); ok {
		var got api.MetricsSummary
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || got.Timestamp == "" {
			t.Errorf("operator metrics: not go-metrics' JSON summary (Timestamp %q, error %v)\n%s", got.Timestamp, err, r)
		}
	}
	step("operator metrics -format prometheus", 0, []string{"operator", "metrics", "-format", "prometheus"},
		`(?m)^# TYPE nomad_client_alloc_hook_prerun_success counter$`)
}

// pauseSteps: a forced pause of the scheduled sleeper, its state read
// back, and the sleeper handed back to its (open) window. `nomad alloc
// pause` is an Enterprise command (API-8 is our copy of it); a build
// without it skips these steps.
func pauseSteps(t *testing.T, nomad func(...string) cliResult, id string) {
	t.Run("alloc pause", func(t *testing.T) {
		r := nomad("alloc", "pause", id, "sleeper")
		if strings.Contains(r.stdout+r.stderr, "Usage: nomad alloc <subcommand>") {
			t.Skipf("this nomad build has no alloc pause (Nomad Enterprise only):\n%s", r)
		}
		checkCLI(t, r, 0)
		checkCLI(t, nomad("alloc", "pause", "-status", id, "sleeper"), 0, `Pause state: "force_pause"`)
		checkCLI(t, nomad("alloc", "pause", "-state=scheduled", id, "sleeper"), 0)
		checkCLI(t, nomad("alloc", "pause", "-status", id, "sleeper"), 0, `Pause state: ""`)
	})
}

// checkCLI reports a result whose exit code is not want or whose output
// misses one of keys (regular expressions); with -v it logs every result.
func checkCLI(t *testing.T, r cliResult, want int, keys ...string) {
	t.Helper()
	if testing.Verbose() {
		t.Log(r)
	}
	if r.code != want {
		t.Errorf("exit %d, want %d:\n%s", r.code, want, r)
		return
	}
	for _, k := range keys {
		if !regexp.MustCompile(k).MatchString(r.stdout + r.stderr) {
			t.Errorf("output does not match %q:\n%s", k, r)
		}
	}
}

// runNomad runs the nomad binary against addr, without color and without
// whatever NOMAD_* settings the environment holds.
func runNomad(t *testing.T, bin, addr string, args ...string) cliResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliCommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NOMAD_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "NOMAD_ADDR="+addr, "NOMAD_CLI_NO_COLOR=1", "NOMAD_CLI_SHOW_HINTS=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := cliResult{args: args, stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		r.code = -1
		r.stderr += fmt.Sprintf("\n(conform test: %v)\n", err)
	}
	if ctx.Err() != nil {
		r.stderr += fmt.Sprintf("\n(conform test: killed after %v)\n", cliCommandTimeout)
	}
	return r
}

// waitCLI runs a command until done accepts its result or the budget is
// spent, and returns the last result.
func waitCLI(t *testing.T, nomad func(...string) cliResult, args []string, done func(cliResult) bool) cliResult {
	t.Helper()
	deadline := time.Now().Add(cliWaitBudget)
	for {
		r := nomad(args...)
		if done(r) || time.Now().After(deadline) {
			return r
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitAlloc polls the job's one alloc until cond holds; the walk cannot
// go on without it.
func waitAlloc(t *testing.T, client *api.Client, cond func(*api.Allocation) bool) *api.Allocation {
	t.Helper()
	deadline := time.Now().Add(cliWaitBudget)
	var last any
	for time.Now().Before(deadline) {
		stubs, _, err := client.Jobs().Allocations("conform-cli", false, nil)
		last = err
		if err == nil && len(stubs) == 1 {
			a, _, err := client.Allocations().Info(stubs[0].ID, nil)
			if last = err; err == nil {
				if cond(a) {
					return a
				}
				last = a.TaskStates
			}
		} else if err == nil {
			last = fmt.Sprintf("%d allocs", len(stubs))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the alloc of conform-cli did not get there within %v; last seen: %v", cliWaitBudget, last)
	return nil
}

func taskRunning(a *api.Allocation, task string) bool {
	ts := a.TaskStates[task]
	return ts != nil && ts.State == "running"
}

func restarts(a *api.Allocation, task string) uint64 {
	if ts := a.TaskStates[task]; ts != nil {
		return ts.Restarts
	}
	return 0
}

// startCLIAgent runs `conform agent -dev` in-process on a free loopback
// port, with the test's PATH for raw_exec tasks, and stops it at the end.
func startCLIAgent(t *testing.T) *devagent.Agent {
	t.Helper()
	stop := make(chan struct{})
	ready := make(chan *devagent.Agent, 1)
	done := make(chan error, 1)
	cfg := agentcmd.Config{
		Getenv:  func(k string) string { return map[string]string{"PATH": os.Getenv("PATH")}[k] },
		Environ: func() []string { return nil },
		Local:   time.UTC,
		Stop:    stop,
		Started: func(a *devagent.Agent) { ready <- a },
	}
	var stderr bytes.Buffer
	go func() {
		done <- cfg.Run("agent", []string{"-dev", "-http-addr", "127.0.0.1:0", "-log-level", "warn"}, &bytes.Buffer{}, &stderr)
	}()
	select {
	case a := <-ready:
		t.Cleanup(func() {
			close(stop)
			if err := <-done; err != nil {
				t.Errorf("conform agent -dev did not stop cleanly: %v\n%s", err, stderr.String())
			}
		})
		return a
	case err := <-done:
		t.Fatalf("conform agent -dev exited before serving: %v\n%s", err, stderr.String())
		return nil
	}
}
