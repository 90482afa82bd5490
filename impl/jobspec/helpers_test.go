package jobspec

import (
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/structs"
)

// jobSrc wraps lines (indented two spaces, from line 2, column 3) in
// `job "j" { ... }`.
func jobSrc(lines ...string) string {
	return "job \"j\" {\n" + indent("  ", lines) + "}\n"
}

// groupSrc wraps lines (from line 3, column 5) in job "j", group "g".
func groupSrc(lines ...string) string {
	return "job \"j\" {\n  group \"g\" {\n" + indent("    ", lines) + "  }\n}\n"
}

// taskSrc wraps lines (from line 5, column 7) in job "j", group "g",
// task "t" with driver = "mock_driver" on line 4.
func taskSrc(lines ...string) string {
	return "job \"j\" {\n  group \"g\" {\n    task \"t\" {\n      driver = \"mock_driver\"\n" +
		indent("      ", lines) + "    }\n  }\n}\n"
}

func indent(prefix string, lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(prefix + l + "\n")
	}
	return b.String()
}

func mustParseHCL(t *testing.T, src string) (*structs.Job, []Warning) {
	t.Helper()
	job, warns, err := ParseHCL("job.hcl", []byte(src))
	must.NoError(t, err, must.Sprint(src))
	must.NotNil(t, job)
	return job, warns
}

// onlyTask is the single task of the single group.
func onlyTask(t *testing.T, job *structs.Job) *structs.Task {
	t.Helper()
	must.SliceLen(t, 1, job.TaskGroups)
	must.SliceLen(t, 1, job.TaskGroups[0].Tasks)
	return job.TaskGroups[0].Tasks[0]
}

// mainTask is a canonical task "t" on mock_driver, to be modified.
func mainTask(mod func(*structs.Task)) *structs.Task {
	t := &structs.Task{
		Name: "t", Driver: "mock_driver",
		KillTimeout: structs.DefaultKillTimeout, KillSignal: structs.DefaultKillSignal,
	}
	if mod != nil {
		mod(t)
	}
	return t
}

func ptr[T any](v T) *T { return &v }

func policy(attempts int, interval, delay time.Duration, mode string) *structs.RestartPolicy {
	return structs.NewRestartPolicy(attempts, interval, delay, mode)
}
