//go:build linux

package agentcmd

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/shoenig/test/must"
)

// envAgentChild makes TestAgentProcess run `conform agent -dev` with the
// production adapters in a re-executed test binary.
const envAgentChild = "ALLOCSIM_AGENTCMD_CHILD"

// hangupGuard bounds each wait for the child agent; never asserted on.
const hangupGuard = 20 * time.Second

// TestAgentProcess is the child of TestAgentHangup, not a test of its own:
// it checks that it started with SIGHUP ignored and runs the agent.
func TestAgentProcess(t *testing.T) {
	if os.Getenv(envAgentChild) == "" {
		t.Skip("the child of TestAgentHangup")
	}
	if !signal.Ignored(syscall.SIGHUP) {
		fmt.Fprintln(os.Stderr, "child: SIGHUP is not ignored at start")
		os.Exit(9)
	}
	os.Exit(cli.Report(os.Stderr, "agent", Config{}.Run("agent",
		[]string{"-dev", "-http-addr", "127.0.0.1:0", "-log-level", "error"}, os.Stdout, os.Stderr)))
}

// sigMasks are the SigIgn and SigCgt masks of /proc/<pid>/status (bit n-1
// for signal n).
func sigMasks(t *testing.T, pid int) (ignored, caught uint64) {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	must.NoError(t, err)
	for line := range strings.Lines(string(data)) {
		k, v, _ := strings.Cut(line, ":")
		m, _ := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
		switch k {
		case "SigIgn":
			ignored = m
		case "SigCgt":
			caught = m
		}
	}
	return ignored, caught
}

// TestAgentHangup: `conform agent -dev` started as nohup starts it
// (SIGHUP ignored) catches SIGHUP, so its tasks do not inherit the
// ignored disposition; a SIGHUP prints Nomad's line and the agent keeps
// serving; SIGTERM then stops it cleanly.
func TestAgentHangup(t *testing.T) {
	if os.Getenv(envAgentChild) != "" {
		t.Skip("already the child")
	}
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	cmd := exec.Command("/bin/sh", "-c", `trap '' HUP; exec "$0" "$@"`,
		os.Args[0], "-test.run", "^TestAgentProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envAgentChild+"=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	must.NoError(t, err)
	must.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	// next returns the first line of stdout starting with prefix.
	next := func(prefix string) string {
		t.Helper()
		timeout := time.After(hangupGuard)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("agent stdout ended before %q; stderr:\n%s", prefix, stderr.String())
				}
				if strings.HasPrefix(l, prefix) {
					return l
				}
			case <-timeout:
				t.Fatalf("no line %q from the agent; stderr:\n%s", prefix, stderr.String())
			}
		}
	}
	addr := strings.TrimSpace(strings.TrimPrefix(next("    HTTP API:"), "    HTTP API:"))

	pid := cmd.Process.Pid // sh exec'd the test binary: same pid
	ignored, caught := sigMasks(t, pid)
	const hup = 1 << (syscall.SIGHUP - 1)
	must.Zero(t, ignored&hup, must.Sprintf("the agent still ignores SIGHUP (SigIgn %016x)", ignored))
	must.NonZero(t, caught&hup, must.Sprintf("the agent does not catch SIGHUP (SigCgt %016x)", caught))

	for range 2 {
		must.NoError(t, cmd.Process.Signal(syscall.SIGHUP))
		must.Eq(t, "==> Caught signal: hangup", next("==> Caught"))
	}
	resp, err := http.Get(addr + "/v1/job/none/allocations")
	must.NoError(t, err)
	_ = resp.Body.Close()
	must.Eq(t, http.StatusOK, resp.StatusCode)

	must.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	next("==> Stopped")
	for range lines {
	}
	must.NoError(t, cmd.Wait(), must.Sprint(stderr.String()))
}
