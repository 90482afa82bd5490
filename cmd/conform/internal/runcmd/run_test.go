package runcmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/properties"
	"github.com/allocsim/allocsim/reports"
	"github.com/shoenig/test/must"
)

// These tests run the suite through go test binaries, as conform run
// does; each builds its test binary once (then cached by go).

// TestMutantFailsAndItsReplayReproduces: the "done means":
// conform run --runner mutant/sched-utc exits 1 and prints a replay
// command that, pasted, reproduces the same failure; two replays print
// the same output.
func TestMutantFailsAndItsReplayReproduces(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suite")
	}
	dir := t.TempDir()
	c := Config{Self: "conform"}
	var out, errOut bytes.Buffer
	junit, js := filepath.Join(dir, "alone.junit.xml"), filepath.Join(dir, "alone.json")
	err := c.Run("run", []string{"--runner", "mutant/sched-utc", "--property", "SCHED-5/inside-windows-only", "--report", dir,
		"--junit", junit, "--json", js}, &out, &errOut)
	must.Eq(t, cli.ExitFailure, cli.ExitCode(err), must.Sprintf("err %v\nstdout:\n%s\nstderr:\n%s", err, &out, &errOut))
	text := out.String()
	must.StrContains(t, text, "FAIL mutant/sched-utc: SCHED-5/inside-windows-only (SCHED-5, ")
	must.StrContains(t, text, "0 of 1 runners met their expectation: mutant/sched-utc.")
	must.StrContains(t, errOut.String(), "mutant/sched-utc  SCHED-5/inside-windows-only  FAIL  seed ")
	replay, violation := field(text, "replay", ""), field(text, "violation", "")
	must.StrHasPrefix(t, "conform replay --runner mutant/sched-utc --property SCHED-5/inside-windows-only --seed ", replay)
	must.NotEq(t, "", violation)

	args := strings.Fields(strings.TrimPrefix(replay, "conform replay "))
	html := filepath.Join(dir, "replay.html")
	var first, second bytes.Buffer
	tracePath := filepath.Join(dir, "replay.trace.jsonl")
	err = c.Replay("replay", append(args, "--html", html, "--trace", tracePath), &first, &errOut)
	must.Eq(t, cli.ExitFailure, cli.ExitCode(err), must.Sprint(err))
	must.StrContains(t, first.String(), "\n--- violation\n"+violation+"\n")
	must.StrContains(t, first.String(), "FAIL\n")
	err = c.Replay("replay", args, &second, &errOut)
	must.Eq(t, cli.ExitFailure, cli.ExitCode(err))
	must.Eq(t, first.String(), second.String(), must.Sprint("two replays print the same"))

	trace, err := os.ReadFile(tracePath)
	must.NoError(t, err)
	must.StrHasPrefix(t, `{"t":`, string(trace))
	must.StrContains(t, string(trace), `"kind":"world","msg":"start"`)
	for _, name := range []string{"report.md", "report.html", "report.json", "junit.xml", "replay.html", "alone.junit.xml", "alone.json"} {
		st, err := os.Stat(filepath.Join(dir, name))
		must.NoError(t, err)
		must.Positive(t, st.Size(), must.Sprint(name))
	}
	f, err := os.Open(filepath.Join(dir, "report.json"))
	must.NoError(t, err)
	defer f.Close()
	run, err := reports.ReadJSON(f)
	must.NoError(t, err)
	p := run.Runners[0].Properties[0]
	must.Eq(t, violation, p.Violation)
	for _, a := range p.Artifacts {
		must.StrHasPrefix(t, "artifacts/mutant_sched-utc/", a, must.Sprint("artifact paths are relative to the report"))
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	must.NoError(t, err)
	must.StrContains(t, string(page), "<svg", must.Sprint("the failure's timeline"))
	must.StrContains(t, string(page), `href="artifacts/mutant_sched-utc/SCHED-5_inside-windows-only-seed-`, must.Sprint("links into the report's artifacts"))
}

// TestReferenceConformsAndExpectFailInverts: a conforming runner exits 0;
// expected to fail, the same result exits 1.
func TestReferenceConformsAndExpectFailInverts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suite")
	}
	c := Config{Self: "conform"}
	args := []string{"--runner", "reference", "--property", "SCHED-5/inside-windows-only", "--checks", "2"}
	var out, errOut bytes.Buffer
	err := c.Run("run", args, &out, &errOut)
	must.NoError(t, err, must.Sprintf("stdout:\n%s\nstderr:\n%s", &out, &errOut))
	must.StrContains(t, out.String(), "1 of 1 runners met their expectation.")
	out.Reset()
	err = c.Run("run", append(args, "--expect-fail"), &out, &errOut)
	must.Eq(t, cli.ExitFailure, cli.ExitCode(err))
}

// TestPackageRunner: --pkg on the example runner module (a module of its
// own) generates the test module, runs it and conforms; a factory that
// does not exist is a build failure of the generated module (exit 3).
func TestPackageRunner(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suite")
	}
	example := absolute(t, "../../../../examples/noderunner")
	c := Config{Self: "conform"}
	var out, errOut bytes.Buffer
	err := c.Run("run", []string{"--pkg", example, "--factory", "New", "--profile", "client-communication",
		"--property", "SYNC-5", "--checks", "1"}, &out, &errOut)
	must.NoError(t, err, must.Sprintf("stdout:\n%s\nstderr:\n%s", &out, &errOut))
	must.StrContains(t, out.String(), "example.com/noderunner.New")
	must.StrContains(t, out.String(), "1 of 1 runners met their expectation.")

	out.Reset()
	errOut.Reset()
	err = c.Run("run", []string{"--pkg", example, "--factory", "NoSuchFactory", "--checks", "1"}, &out, &errOut)
	must.Eq(t, cli.ExitTool, cli.ExitCode(err), must.Sprint(err))
	must.ErrorContains(t, err, "NoSuchFactory")
	err = c.Run("run", []string{"--pkg", filepath.Join(t.TempDir(), "none"), "--checks", "1"}, &out, &errOut)
	must.True(t, cli.IsUsage(err), must.Sprint(err))
}

// TestRunnerPanicOnItsOwnGoroutine: a runner whose own goroutine panics
// ends the test binary; conform run still fails the property at the
// check's seed, with the panic, and the replay reproduces it; the
// properties the dead binary did not reach run in new ones, so the
// report accounts for every property of the suite.
func TestRunnerPanicOnItsOwnGoroutine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suite")
	}
	dir := absolute(t, "testdata/panicrunner")
	c := Config{Self: "conform"}
	var out, errOut bytes.Buffer
	jsonFile := filepath.Join(t.TempDir(), "run.json")
	// Two checks: SYNC-5/producers-never-block's first scenario fails or
	// cuts every alloc pull (Node.GetClientAllocs, then Alloc.GetAllocs)
	// before its crash, so it builds no runner; its second does.
	err := c.Run("run", []string{"--pkg", dir, "--factory", "New", "--profile", "client-communication",
		"--checks", "2", "--json", jsonFile}, &out, &errOut)
	must.Eq(t, cli.ExitFailure, cli.ExitCode(err), must.Sprintf("%v\nstdout:\n%s\nstderr:\n%s", err, &out, &errOut))
	data, err := os.ReadFile(jsonFile)
	must.NoError(t, err)
	var run reports.Run
	must.NoError(t, json.Unmarshal(data, &run))
	must.SliceLen(t, 1, run.Runners)
	statuses := map[reports.Status]int{}
	for _, p := range run.Runners[0].Properties {
		statuses[p.Status]++
	}
	must.SliceLen(t, len(properties.List()), run.Runners[0].Properties, must.Sprintf("every property of the suite, by status: %v", statuses))
	must.Eq(t, map[reports.Status]int{reports.Fail: 9, reports.NotApplicable: len(properties.List()) - 9}, statuses)
	text := out.String()
	must.StrContains(t, text, "violation: cause 1 above, here: the runner panicked and ended the test binary: panic: panicrunner: a goroutine of the runner's own panics")
	must.StrContains(t, text, "CAUSE 1 of example.com/panicrunner.New: one violation failed 9 properties")
	must.StrContains(t, text, "seed:      ")
	must.StrContains(t, text, "(check 1)")
	replay := strings.TrimPrefix(field(text, "replay", "--property SYNC-5/acknowledged-not-resent "), "conform replay ")
	must.StrContains(t, replay, "--pkg "+dir+" --factory New --profile client-communication --property SYNC-5/acknowledged-not-resent --seed ")
	var rep bytes.Buffer
	err = c.Replay("replay", strings.Fields(replay), &rep, &errOut)
	must.Eq(t, cli.ExitFailure, cli.ExitCode(err), must.Sprintf("%v\n%s", err, &rep))
	must.StrContains(t, rep.String(), "(no timeline: the run ended the test binary")
	must.StrContains(t, rep.String(), "panic: panicrunner")
}

// field is the value of the last "  <name>: <value>" line of a failure
// block in text that contains has.
func field(text, name, has string) string {
	var v string
	for _, l := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(l, "  "+name+":"); ok && strings.Contains(rest, has) {
			v = strings.TrimSpace(rest)
		}
	}
	return v
}

func absolute(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	must.NoError(t, err)
	return abs
}
