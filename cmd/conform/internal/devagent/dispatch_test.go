package devagent

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// TestDevAgentDispatchEnv: a parameterized raw_exec batch job placed by a
// dispatch runs with the dispatch's meta merged over the job's as
// NOMAD_META_<key> (and upper-cased), the agent's base environment
// (Config.Env) and PATH, and completes.
func TestDevAgentDispatchEnv(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("raw_exec runs tasks on Linux only")
	}
	out := filepath.Join(t.TempDir(), "env.txt")
	a := startTest(t, Config{Path: "/usr/bin:/bin", Env: map[string]string{"HOME": "/home/sweeper", "PATH": "/ignored"}})
	c := apiClient(t, a)
	job := api.NewBatchJob("envjob", "envjob", "global", 50)
	job.ParameterizedJob = &api.ParameterizedJobConfig{MetaRequired: []string{"out"}, MetaOptional: []string{"shard"}}
	job.Meta = map[string]string{"shard": "0", "owner": "ops"}
	tg := api.NewTaskGroup("g", 1)
	task := api.NewTask("t", "raw_exec")
	task.Config = map[string]any{"command": "/bin/sh", "args": []string{"-c", `env > "$NOMAD_META_out"`}}
	tg.AddTask(task)
	job.AddTaskGroup(tg)
	_, _, err := c.Jobs().Register(job, nil)
	must.NoError(t, err)
	resp, _, err := c.Jobs().Dispatch("envjob", map[string]string{"out": out, "shard": "2"}, nil, "", nil)
	must.NoError(t, err)
	eventually(t, "the dispatched alloc to complete", func() bool {
		stubs, _, err := c.Jobs().Allocations(resp.DispatchedJobID, false, nil)
		return err == nil && len(stubs) == 1 && stubs[0].ClientStatus == "complete"
	})
	data, err := os.ReadFile(out)
	must.NoError(t, err)
	env := strings.Split(strings.TrimSpace(string(data)), "\n")
	for _, want := range []string{"NOMAD_META_out=" + out, "NOMAD_META_OUT=" + out, "NOMAD_META_shard=2",
		"NOMAD_META_owner=ops", "HOME=/home/sweeper", "PATH=/usr/bin:/bin"} {
		must.SliceContains(t, env, want)
	}
}

// TestTaskEnv: the agent's environment less PATH and Nomad's denylist.
func TestTaskEnv(t *testing.T) {
	got := TaskEnv([]string{"HOME=/root", "PATH=/bin", "VAULT_TOKEN=s", "AWS_SECRET_ACCESS_KEY=k", "EMPTY=", "=x", "NOEQ", "GOFLAGS=-mod=mod"})
	must.Eq(t, map[string]string{"HOME": "/root", "EMPTY": "", "GOFLAGS": "-mod=mod"}, got)
}
