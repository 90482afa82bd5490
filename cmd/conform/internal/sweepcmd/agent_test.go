package sweepcmd

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/agentcmd"
	"github.com/allocsim/allocsim/cmd/conform/internal/devagent"
	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/impl/jobspec"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// agentBudget bounds the wait for the dispatched allocs (a bound on
// polling, never an assertion on how long anything took).
const agentBudget = 50 * time.Second

// TestSweepOnDevAgent proves fixtures/jobs/sweep.nomad.hcl runs on
// `conform agent -dev`: it builds conform, registers the parameterized
// job (nothing runs), dispatches the tiny sweep's two shards with meta
// naming the binary, the allocsim source and an out dir, waits for both
// dispatched allocs to complete, and merges their summaries: seeds 1..6
// are covered.
func TestSweepOnDevAgent(t *testing.T) {
	switch {
	case runtime.GOOS != "linux":
		t.Skip("raw_exec runs tasks on Linux only")
	case testing.Short():
		t.Skip("builds conform and runs the suite in raw_exec tasks (about 15 s)")
	}
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("the job's task runs /bin/sh")
	}
	start := time.Now()
	root, dir := moduleRoot(t), t.TempDir()
	conform := buildConform(t, root, dir)
	addr, dataDir := startAgent(t)
	c, err := api.NewClient(&api.Config{Address: addr})
	must.NoError(t, err)

	path := filepath.Join(root, "fixtures", "jobs", "sweep.nomad.hcl")
	src, err := os.ReadFile(path)
	must.NoError(t, err)
	job, _, err := jobspec.Parse(path, src)
	must.NoError(t, err)
	_, _, err = c.Jobs().Register(apiconv.JobToAPI(job), nil)
	must.NoError(t, err)
	stubs, _, err := c.Jobs().Allocations(job.ID, false, nil)
	must.NoError(t, err)
	must.SliceEmpty(t, stubs, must.Sprint("the parameterized job itself runs nothing"))

	out := filepath.Join(dir, "out")
	var children []string
	for shard := 1; shard <= 2; shard++ {
		resp, _, err := c.Jobs().Dispatch(job.ID, map[string]string{
			"runner": e2eRunner, "seeds": e2eSeeds, "shard": fmt.Sprint(shard), "shards": "2", "out": out,
			"conform": conform, "allocsim": root, "property": e2eFails + "," + e2ePasses, "chunk": e2eChunk,
		}, nil, "", nil)
		must.NoError(t, err)
		must.StrHasPrefix(t, job.ID+"/dispatch-", resp.DispatchedJobID)
		children = append(children, resp.DispatchedJobID)
	}
	for _, child := range children {
		waitComplete(t, c, child, dataDir, start.Add(agentBudget))
	}

	summaries := []string{filepath.Join(out, "sweep-shard-1-of-2.json"), filepath.Join(out, "sweep-shard-2-of-2.json")}
	code, stdout, stderr := run(mergeRun(Config{Self: "conform"}), "sweep merge", append([]string{"--complete"}, summaries...)...)
	must.EqOp(t, 1, code, must.Sprintf("the two failures, nothing else\nstdout:\n%s\nstderr:\n%s", stdout, stderr))
	must.StrContains(t, stdout, "covered: 6 of 6 seeds, complete\n")
	must.StrContains(t, stdout, "failures: 2\n")
	t.Logf("sweep on the dev agent: %s", time.Since(start).Round(100*time.Millisecond))
}

// buildConform builds the conform binary into dir.
func buildConform(t *testing.T, root, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "conform")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/conform")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	must.NoError(t, err, must.Sprintf("go build ./cmd/conform:\n%s", out))
	return bin
}

// startAgent runs `conform agent -dev` in-process on a free loopback port
// with this process's environment (PATH, HOME, the Go settings) for its
// raw_exec tasks, and returns its address and data dir; cleanup stops it
// and checks it stopped cleanly.
func startAgent(t *testing.T) (addr, dataDir string) {
	t.Helper()
	stop := make(chan struct{})
	ready := make(chan *devagent.Agent, 1)
	done := make(chan error, 1)
	cfg := agentcmd.Config{Getenv: os.Getenv, Environ: os.Environ, Local: time.UTC, Stop: stop,
		Started: func(a *devagent.Agent) { ready <- a }}
	go func() {
		var stdout, stderr bytes.Buffer
		done <- cfg.Run("agent", []string{"-dev", "-http-addr", "127.0.0.1:0", "-log-level", "error"}, &stdout, &stderr)
	}()
	select {
	case a := <-ready:
		addr, dataDir = a.Addr(), a.DataDir()
	case err := <-done:
		t.Fatalf("conform agent -dev exited before serving: %v", err)
	}
	t.Cleanup(func() {
		close(stop)
		must.NoError(t, <-done)
	})
	return addr, dataDir
}

// waitComplete polls the job's alloc until it is complete; past deadline,
// or if it fails, the test fails with its task events and logs.
func waitComplete(t *testing.T, c *api.Client, jobID, dataDir string, deadline time.Time) {
	t.Helper()
	var last *api.AllocationListStub
	for time.Now().Before(deadline) {
		stubs, _, err := c.Jobs().Allocations(jobID, false, nil)
		must.NoError(t, err)
		if len(stubs) == 1 {
			last = stubs[0]
			switch last.ClientStatus {
			case "complete":
				return
			case "failed":
				t.Fatalf("job %s: alloc failed\n%s", jobID, describe(c, last.ID, dataDir))
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if last == nil {
		t.Fatalf("job %s: no alloc placed within %s", jobID, agentBudget)
	}
	t.Fatalf("job %s: alloc %s still %s after %s\n%s", jobID, last.ID, last.ClientStatus, agentBudget, describe(c, last.ID, dataDir))
}

// describe is an alloc's task events and the tails of its task's logs.
func describe(c *api.Client, allocID, dataDir string) string {
	var b strings.Builder
	if al, _, err := c.Allocations().Info(allocID, nil); err == nil {
		for name, ts := range al.TaskStates {
			fmt.Fprintf(&b, "task %s: %s (failed %v)\n", name, ts.State, ts.Failed)
			for _, ev := range ts.Events {
				fmt.Fprintf(&b, "  %s: %s\n", ev.Type, ev.DisplayMessage)
			}
		}
	}
	for _, stream := range []string{"stdout", "stderr"} {
		data, err := os.ReadFile(filepath.Join(dataDir, "alloc", allocID, "alloc", "logs", "sweep."+stream+".0"))
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		fmt.Fprintf(&b, "--- %s (last lines)\n%s\n", stream, strings.Join(lines[max(0, len(lines)-25):], "\n"))
	}
	return b.String()
}
