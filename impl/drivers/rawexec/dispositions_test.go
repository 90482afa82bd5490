//go:build linux

package rawexec

import (
	"bytes"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

// envIgnoredChild marks the test binary TestTasksUnderIgnoredSignals
// re-executes with SIGHUP and SIGINT ignored.
const envIgnoredChild = "ALLOCSIM_RAWEXEC_IGNORED_CHILD"

// hupIgnoredAtStart is whether this test process started with SIGHUP
// ignored (read before any test starts a task and adopts it).
var hupIgnoredAtStart = signal.Ignored(syscall.SIGHUP)

// ignoredMask is a process's SigIgn mask from /proc/<pid>/status: bit n-1
// set when signal n is ignored.
func ignoredMask(t *testing.T, status string) uint64 {
	t.Helper()
	for line := range strings.Lines(status) {
		if v, ok := strings.CutPrefix(line, "SigIgn:"); ok {
			m, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			must.NoError(t, err)
			return m
		}
	}
	t.Fatalf("no SigIgn line in %q", status)
	return 0
}

// TestTaskSignalDispositions: a task starts with no adoptable signal
// ignored, whatever this process ignores; the task reports the mask of
// its own process (grep, exec'd by sh, inherits it unchanged).
func TestTaskSignalDispositions(t *testing.T) {
	if os.Getenv(envIgnoredChild) != "" {
		must.True(t, hupIgnoredAtStart, must.Sprint("the re-executed test did not start with SIGHUP ignored"))
	}
	d := newDriver(t, Config{})
	out := newFIFO(t)
	start(t, d, shTask("a/probe", `exec grep '^SigIgn:' /proc/self/status > "$OUT"`,
		map[string]string{"OUT": out.path}))
	ch := wait(t, d, "a/probe")
	mask := ignoredMask(t, out.line(t)+"\n")
	must.Eq(t, 0, result(t, ch).ExitCode)
	for _, s := range adoptable {
		n := s.(syscall.Signal)
		must.Zero(t, mask&(1<<(n-1)), must.Sprintf("the task ignores %v (SigIgn %016x)", n, mask))
	}
	// The driver's process still does not die of what it ignored.
	if hupIgnoredAtStart {
		must.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGHUP))
	}
}

// TestTasksUnderIgnoredSignals runs the tests that need a task to see a
// SIGHUP in a copy of this test binary started as nohup starts things:
// SIGHUP and SIGINT ignored (a shell trap with an empty action sets
// SIG_IGN, which exec keeps). Without the driver's unignoreSignals, the
// tasks' HUP traps never run and both fifo reads time out.
func TestTasksUnderIgnoredSignals(t *testing.T) {
	if os.Getenv(envIgnoredChild) != "" {
		t.Skip("already the re-executed child")
	}
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	const tests = "^(TestTaskSignalDispositions|TestSignalTask|TestRecoverThenStop)$"
	cmd := exec.Command("/bin/sh", "-c", `trap '' HUP INT; exec "$0" "$@"`,
		os.Args[0], "-test.run", tests, "-test.v", "-test.count=1", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), envIgnoredChild+"=1")
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	begun := time.Now()
	err := cmd.Run()
	t.Logf("child ran in %v", time.Since(begun).Round(time.Millisecond))
	must.NoError(t, err, must.Sprintf("child output:\n%s", output.String()))
	for _, name := range []string{"TestTaskSignalDispositions", "TestSignalTask", "TestRecoverThenStop"} {
		must.StrContains(t, output.String(), "--- PASS: "+name+" ", must.Sprintf("child output:\n%s", output.String()))
	}
}
