package agentcmd

import (
	"bytes"
	"flag"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/cmd/conform/internal/devagent"
	"github.com/shoenig/test/must"
)

// started runs the command in a goroutine with a stop channel; it returns
// the agent once it serves and a function that stops it and returns the
// exit code, stdout and stderr.
func started(t *testing.T, args ...string) (*devagent.Agent, func() (int, string, string)) {
	t.Helper()
	stop := make(chan struct{})
	ready := make(chan *devagent.Agent, 1)
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	berlin, err := time.LoadLocation("Europe/Berlin")
	must.NoError(t, err)
	cfg := Config{
		Getenv:  func(k string) string { return map[string]string{"PATH": "/bin"}[k] },
		Local:   berlin,
		Stop:    stop,
		Started: func(a *devagent.Agent) { ready <- a },
	}
	go func() {
		var stdout, stderr bytes.Buffer
		code := cli.Report(&stderr, "agent", cfg.Run("agent", args, &stdout, &stderr))
		done <- result{code, stdout.String(), stderr.String()}
	}()
	var a *devagent.Agent
	select {
	case a = <-ready:
	case r := <-done:
		t.Fatalf("agent exited with %d before serving: %s", r.code, r.stderr)
	}
	var once bool
	return a, func() (int, string, string) {
		if !once {
			once = true
			close(stop)
		}
		r := <-done
		return r.code, r.stdout, r.stderr
	}
}

func TestAgentServesAndStops(t *testing.T) {
	a, stop := started(t, "-dev", "-http-addr", "127.0.0.1:0")
	must.StrHasPrefix(t, "http://127.0.0.1:", a.Addr())
	must.True(t, a.TempDataDir())
	dataDir := a.DataDir()
	must.DirExists(t, dataDir)
	code, stdout, stderr := stop()
	must.Eq(t, 0, code, must.Sprint(stderr))
	must.Eq(t, "", stderr)
	for _, line := range []string{
		"==> conform dev agent started\n",
		"    HTTP API:   " + a.Addr() + "\n",
		"    Node ID:    " + a.NodeID() + "\n",
		"    Profile:    ent\n",
		"    Local zone: Europe/Berlin, this machine's\n",
		"    Drivers:    mock_driver, raw_exec\n",
		"    Data dir:   " + dataDir + " (temporary, removed on exit)\n",
		"==> stop requested: stopping every allocation and shutting down\n==> Stopped\n",
	} {
		must.StrContains(t, stdout, line)
	}
	_, err := os.Stat(dataDir)
	must.True(t, os.IsNotExist(err), must.Sprintf("temporary data dir left: %v", err))
}

func TestAgentFlags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	a, stop := started(t, "-dev", "-http-addr=127.0.0.1:0", "-data-dir", dir, "-profile=ce",
		"-local-zone=America/New_York", "-log-level=warn")
	must.Eq(t, "ce", string(a.Profile()))
	must.False(t, a.TempDataDir())
	code, stdout, stderr := stop()
	must.Eq(t, 0, code, must.Sprint(stderr))
	must.StrContains(t, stdout, "    Profile:    ce\n")
	must.StrContains(t, stdout, "    Local zone: America/New_York\n")
	must.StrContains(t, stdout, "    Data dir:   "+dir+"\n")
	must.FileExists(t, filepath.Join(dir, "client", "state.db"), must.Sprint("a given data dir is kept"))
}

func TestAgentUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{nil, "conform agent: only dev mode exists: run conform agent -dev\n"},
		{[]string{"-dev", "extra"}, `conform agent: unexpected argument "extra": conform agent takes flags only` + "\n"},
		{[]string{"-dev", "-profile", "oss"}, `conform agent: invalid -profile "oss": want ent or ce` + "\n"},
		{[]string{"-dev", "-local-zone", "Mars/Olympus"}, `conform agent: invalid -local-zone "Mars/Olympus": unknown time zone Mars/Olympus` + "\n"},
		{[]string{"-dev", "-log-level", "loud"}, `conform agent: invalid -log-level "loud": want debug, info, warn or error` + "\n"},
		{[]string{"-dev", "-nope"}, "conform agent: flag provided but not defined: -nope\n"},
	}
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		code := cli.Report(&stderr, "agent", Config{}.Run("agent", tc.args, &stdout, &stderr))
		must.Eq(t, 2, code)
		must.Eq(t, "", stdout.String())
		must.Eq(t, tc.want+"Run 'conform agent --help' for usage.\n", stderr.String())
	}
}

// TestAgentAddressInUse: a start failure exits 1 with the reason.
func TestAgentAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must.NoError(t, err)
	defer ln.Close()
	var stdout, stderr bytes.Buffer
	code := cli.Report(&stderr, "agent", Config{Stop: make(chan struct{})}.Run("agent",
		[]string{"-dev", "-http-addr", ln.Addr().String()}, &stdout, &stderr))
	must.Eq(t, 1, code)
	must.Eq(t, "", stdout.String())
	must.StrContains(t, stderr.String(), "conform agent: listening for the HTTP API: ")
	must.StrContains(t, stderr.String(), "address already in use")
}

func TestAgentHelp(t *testing.T) {
	var stdout bytes.Buffer
	must.NoError(t, Config{}.Run("agent", []string{"--help"}, &stdout, &bytes.Buffer{}))
	var o options
	newFlagSet("agent", &o).VisitAll(func(f *flag.Flag) {
		must.StrContains(t, stdout.String(), "  -"+f.Name)
	})
	must.True(t, strings.Contains(stdout.String(), devagent.DefaultHTTPAddr))
}
