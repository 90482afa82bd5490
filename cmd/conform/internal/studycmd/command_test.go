package studycmd

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/shoenig/test/must"
)

// inProcess runs the study's runs one after the other, each in a bubble
// of t's (the test binary's own executor, without building one). A run's
// Wall is a stand-in the seed decides (a microsecond per settled
// instant), so that the report's cost section is the same bytes twice.
func inProcess(t *testing.T) Executor {
	return func(_ context.Context, job Job) ([]RunSummary, error) {
		out := make([]RunSummary, len(job.Runs))
		var errs []error
		for i, spec := range job.Runs {
			synctest.Test(t, func(*testing.T) {
				s, err := RunOne(spec)
				s.Wall = time.Duration(s.Steps) * time.Microsecond
				out[i] = s
				errs = append(errs, err)
			})
			job.Done(i, out[i])
		}
		return out, errors.Join(errs...)
	}
}

// fixedNow is a wall clock that never moves (progress lines stay the same).
func fixedNow() time.Time { return time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC) }

// run runs the command and returns its exit code and output.
func run(c Config, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.Report(&stderr, "study sync", c.Run("study sync", args, &stdout, &stderr))
	return code, stdout.String(), stderr.String()
}

// TestUsageErrors: bad input is exit 2 with one clear line and a pointer
// to --help, before anything runs.
func TestUsageErrors(t *testing.T) {
	never := Config{Exec: func(context.Context, Job) ([]RunSummary, error) {
		t.Fatal("a usage error ran the study")
		return nil, nil
	}}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, `unexpected arguments ["extra"]`},
		{[]string{"--grid", "10"}, `--grid "10": "10": want N clients x M allocs, e.g. 10x50`},
		{[]string{"--grid", "0x10"}, `--grid "0x10": "0x10": want 1 to 1000 clients`},
		{[]string{"--grid", "1x0"}, `--grid "1x0": "1x0": want 1 to 5000 allocs per client`},
		{[]string{"--grid", ","}, `--grid ",": no configuration`},
		{[]string{"--seeds", "0"}, "--seeds 0: want at least 1"},
		{[]string{"--minutes", "0"}, "--minutes 0: want 10 seconds (0.17) to 24 hours (1440)"},
		{[]string{"--minutes", "NaN"}, "--minutes NaN: want 10 seconds (0.17) to 24 hours (1440)"},
		{[]string{"--rpc-latency", "-1s"}, "--rpc-latency -1s: want 0 to 1s"},
		{[]string{"--parallel", "-1"}, "--parallel -1: want 0 (one per CPU) or more"},
		{[]string{"--out", "report.txt"}, `--out "report.txt": want a Markdown file name ending in .md`},
		{[]string{"--runner", "nope"}, `--runner: no built-in runner "nope"`},
		{[]string{"--baseline", "reference"}, "--runner and --baseline are both reference: compare two runners"},
		{[]string{"--seeds", "x"}, `invalid value "x" for flag -seeds`},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := run(never, tc.args...)
			must.EqOp(t, cli.ExitUsage, code)
			must.EqOp(t, "", stdout)
			must.StrContains(t, stderr, "conform study sync: "+tc.want)
			must.StrHasSuffix(t, "Run 'conform study sync --help' for usage.\n", stderr)
		})
	}
}

// TestToolErrors: an executor that fails, or a run that failed, is exit 3.
func TestToolErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.md")
	failing := Config{Now: fixedNow, Exec: func(context.Context, Job) ([]RunSummary, error) {
		return nil, errors.New("no go command")
	}}
	code, _, stderr := run(failing, "--quick", "--out", out)
	must.EqOp(t, cli.ExitTool, code)
	must.StrContains(t, stderr, "conform study sync: study sync: no go command\n")
	short := Config{Now: fixedNow, Exec: func(_ context.Context, job Job) ([]RunSummary, error) {
		sums := make([]RunSummary, len(job.Runs))
		sums[1].Err = "cluster: livelock"
		return sums, nil
	}}
	code, _, stderr = run(short, "--quick", "--out", out)
	must.EqOp(t, cli.ExitTool, code)
	must.StrContains(t, stderr, ": cluster: livelock\n")
	_, err := os.Stat(out)
	must.True(t, os.IsNotExist(err))
}

// TestTinyStudy runs a tiny study in process twice: the report and its
// charts are written, are the same bytes both times, the charts are XML
// and the checks hold.
func TestTinyStudy(t *testing.T) {
	dir := t.TempDir()
	c := Config{Self: "conform", Exec: inProcess(t), Now: fixedNow}
	args := []string{"--grid", "1x4,2x3", "--seeds", "2", "--minutes", "0.5", "--out", filepath.Join("out", "sync.md")}
	must.NoError(t, os.Mkdir(filepath.Join(dir, "a"), 0o755))
	must.NoError(t, os.Mkdir(filepath.Join(dir, "b"), 0o755))
	t.Chdir(filepath.Join(dir, "a"))
	code, stdout, stderr := run(c, args...)
	must.EqOp(t, 0, code, must.Sprint(stderr))
	must.StrContains(t, stderr, "study sync: 8 runs (2 configurations x 2 seeds x 2 runners, 30s virtual each)")
	must.StrContains(t, stderr, "study sync: 8/8 ")
	must.StrContains(t, stdout, "report: "+filepath.Join("out", "sync.md"))
	for _, want := range []string{"holds: typical-only traffic", "holds: urgent ClientStatus changes", "holds: reference never made more"} {
		must.StrContains(t, stdout, want)
	}
	report := read(t, filepath.Join("out", "sync.md"))
	for _, want := range []string{
		"conform study sync --grid 1x4,2x3 --seeds 2 --minutes 0.5 --rpc-latency 10ms --runner reference --baseline mutant/sync-no-priority --out out/sync.md",
		"### 1 × 4", "### 2 × 3", "| `Node.UpdateAlloc` RPCs |", "![", "(sync/rpcs.svg)", "## Checks", "## Against Nomad's figures",
		"## Cost of simulating a client", "(sync/cost-clients.svg)",
	} {
		must.StrContains(t, report, want)
	}
	charts := map[string]string{}
	for _, name := range []string{"rpcs.svg", "log-entries.svg", "latency.svg", "cost-allocs.svg", "cost-clients.svg"} {
		charts[name] = read(t, filepath.Join("out", "sync", name))
		wellFormed(t, name, charts[name])
	}
	t.Chdir(filepath.Join(dir, "b"))
	code, stdout2, stderr := run(c, args...)
	must.EqOp(t, 0, code, must.Sprint(stderr))
	must.EqOp(t, stdout, stdout2)
	must.EqOp(t, report, read(t, filepath.Join("out", "sync.md")))
	for name, svg := range charts {
		must.EqOp(t, svg, read(t, filepath.Join("out", "sync", name)), must.Sprint(name))
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	must.NoError(t, err)
	return string(b)
}

// wellFormed decodes an SVG document with encoding/xml to its end.
func wellFormed(t *testing.T, name, doc string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(doc))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		must.NoError(t, err, must.Sprint(name))
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	must.EqOp(t, "svg", root, must.Sprint(name))
}

// TestStudyEndToEnd runs a tiny study for real: the test binary built
// from this module's source with go test -c, its worker, the report.
func TestStudyEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the study's test binary (about 10 s)")
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	must.NoError(t, err)
	root := strings.TrimSpace(string(out))
	report := filepath.Join(t.TempDir(), "sync.md")
	code, stdout, stderr := run(Config{}, "--grid", "1x3,2x2", "--seeds", "1", "--minutes", "0.5", "--parallel", "2",
		"--allocsim", root, "--out", report)
	must.EqOp(t, 0, code, must.Sprint(stderr))
	must.StrContains(t, stderr, "study sync: building the study's test binary from "+root)
	must.StrContains(t, stderr, "study sync: 4/4 ")
	must.StrContains(t, stdout, "holds: urgent ClientStatus changes")
	must.StrContains(t, read(t, report), "### 2 × 2")
	must.StrNotContains(t, read(t, report), "Not measured")
	wellFormed(t, "latency.svg", read(t, filepath.Join(strings.TrimSuffix(report, ".md"), "latency.svg")))
	wellFormed(t, "cost-clients.svg", read(t, filepath.Join(strings.TrimSuffix(report, ".md"), "cost-clients.svg")))
}
