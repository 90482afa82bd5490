package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

// galleryDir is examples/gallery (module example.com/gallery) from this
// package's directory: foreign runner shapes, one package each, written
// the way outside authors write alloc runners, each with the verdict
// the suite must give in its doc.go.
const galleryDir = "../../examples/gallery"

// galleryShape is one row of TestGallery: a shape of examples/gallery
// checked with `conform run --pkg <dir> --factory New --profile
// client-communication --checks 2`.
type galleryShape struct {
	// shape is the package directory under examples/gallery.
	shape string
	// properties, if set, runs only these properties or SPEC IDs
	// (--property); harness-level verdicts (DET-1, DET-3, leaks, SYNC-1
	// late pushes) fire in any property, so one is enough there.
	properties []string
	// env is set for the run (and the replay), e.g. a shorter stall
	// period for a shape that stalls the world.
	env map[string]string
	// fails: the shape must not conform; it runs with --expect-fail, so
	// exit 0 means "failed, as expected", and the first failure's
	// `conform replay` command must reproduce its violation.
	fails bool
	// wantCode is conform run's exit code.
	wantCode int
	// replayTries is how many times the replay may be run until the seed
	// fails again (default 1): a runner that is nondeterministic on its
	// own reproduces only with a probability.
	replayTries int

	// diagnosis: substrings conform run must print (stdout and stderr
	// together) for this shape's verdict (README "What each diagnosis
	// means").
	diagnosis []string
}

// galleryShapes are examples/gallery's shapes and their verdicts.
var galleryShapes = []galleryShape{
	{
		// time.Now/time.Sleep instead of the injected clock: the
		// simulation keeps the time package in step with the world.
		shape:    "sleeper",
		wantCode: 0,
		diagnosis: []string{
			"example.com/gallery/sleeper.New: conforms, as expected",
			"1 of 1 runners met their expectation.",
		},
	},
	{
		// A heartbeat goroutine on cfg.Clock.Ticker, never stopped.
		shape:      "leaker",
		properties: []string{"AR-8/client-status-every-instant"},
		fails:      true,
		wantCode:   0,
		diagnosis: []string{
			`LEAK (runner "example.com/gallery/leaker.New", seed `,
			"goroutines after Shutdown returned",
			"example.com/gallery/leaker.(*Runner).heartbeat (leaker/runner.go:",
			"started by example.com/gallery/leaker.(*Runner).Run (leaker/runner.go:",
		},
	},
	{
		// An extra state DB write on a math/rand global coin flip.
		shape:       "coinflip",
		fails:       true,
		wantCode:    0,
		replayTries: 3,
		diagnosis: []string{
			`DET-4 (runner "example.com/gallery/coinflip.New", seed `,
			"differs from run 1's, want byte-identical traces",
			`; run 1: {`, `"op":"put alloc"`,
			"CAUSE 1 of example.com/gallery/coinflip.New: one violation failed",
		},
	},
	{
		// A sync.Mutex held across a held state DB write while another
		// goroutine of the runner waits for it.
		shape:      "mutexheld",
		properties: []string{"AR-8/client-status-every-instant"},
		env:        map[string]string{"ALLOCSIM_STALL": "3s"},
		fails:      true,
		wantCode:   0,
		diagnosis: []string{
			`DET-3: the world did not settle (runner "example.com/gallery/mutexheld.New", seed `,
			"sync.(*Mutex).Lock",
			"example.com/gallery/mutexheld.(*Runner).announce",
		},
	},
	{
		// A change stamped with cfg.Clock.Now, pushed 100 ms later.
		shape:      "latepush",
		properties: []string{"AR-8/client-status-every-instant"},
		fails:      true,
		wantCode:   0,
		diagnosis: []string{
			`SYNC-1 (runner "example.com/gallery/latepush.New", seed `,
			"pushed 100ms after the instant it was made; want it pushed at that instant",
		},
	},
	{
		// Pushes without a NodeID: the server rejects every UpdateAlloc.
		shape:    "rejected",
		fails:    true,
		wantCode: 0,
		diagnosis: []string{
			`SYNC-4 (runner "example.com/gallery/rejected.New", seed `,
			`Node.UpdateAlloc calls, the first at `,
			`"Node.UpdateAlloc: missing node ID"`,
			"the alloc's NodeID",
		},
	},
}

// TestGallery runs `conform run --pkg` on every shape of
// examples/gallery (each row builds a module and runs it, then replays:
// 5 to 15 s a row with a warm build cache) and
// checks the exit code, the diagnosis and, for a shape that must fail,
// that the `conform replay` command printed for its first failure
// reproduces the same violation.
func TestGallery(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a generated module per gallery shape")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command: conform run --pkg builds the runner's module")
	}
	env := testEnv(t)
	conform := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr, env)
		return code, stdout.String(), stderr.String()
	}
	for _, row := range galleryShapes {
		t.Run(row.shape, func(t *testing.T) {
			for k, v := range row.env {
				t.Setenv(k, v)
			}
			args := []string{"run", "--pkg", filepath.ToSlash(filepath.Join(galleryDir, row.shape)),
				"--factory", "New", "--profile", "client-communication", "--checks", "2",
				"--artifacts", t.TempDir()}
			for _, p := range row.properties {
				args = append(args, "--property", p)
			}
			if row.fails {
				args = append(args, "--expect-fail")
			}
			start := time.Now()
			code, stdout, stderr := conform(args...)
			t.Logf("conform %s: exit %d in %v", strings.Join(args, " "), code, time.Since(start).Round(100*time.Millisecond))
			out := stdout + stderr
			if code != row.wantCode {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, row.wantCode, stdout, stderr)
			}
			for _, want := range row.diagnosis {
				if !strings.Contains(out, want) {
					t.Errorf("diagnosis: output lacks %q\nstdout:\n%s\nstderr:\n%s", want, stdout, stderr)
				}
			}
			if !row.fails {
				return
			}
			violation, replay := firstFailure(stdout)
			if violation == "" {
				t.Fatalf("no failure with a violation in the output\nstdout:\n%s", stdout)
			}
			t.Logf("first failure: %s\n  replay: %s", violation, replay)
			fields := strings.Fields(replay)
			if len(fields) < 2 || fields[0] != "conform" || fields[1] != "replay" {
				t.Fatalf("first failure's replay line %q is not a conform replay command", replay)
			}
			var rcode int
			var rstdout, rstderr string
			for try := 1; try <= max(row.replayTries, 1); try++ {
				start = time.Now()
				rcode, rstdout, rstderr = conform(fields[1:]...)
				t.Logf("%s: exit %d in %v", replay, rcode, time.Since(start).Round(100*time.Millisecond))
				if rcode != 0 {
					break
				}
			}
			must.Eq(t, 1, rcode, must.Sprintf("replay exit code (1: the seed fails)\nstdout:\n%s\nstderr:\n%s", rstdout, rstderr))
			must.StrContains(t, sameDiagnosis(rstdout+rstderr), sameDiagnosis(violation),
				must.Sprintf("the replay must print the run's violation %q\nstdout:\n%s\nstderr:\n%s", violation, rstdout, rstderr))
		})
	}
}

// firstFailure returns the violation and the replay command of the
// first failure conform run printed (empty when there is none).
func firstFailure(stdout string) (violation, replay string) {
	in := false
	for _, line := range strings.Split(stdout, "\n") {
		switch {
		case strings.HasPrefix(line, "FAIL ") || strings.HasPrefix(line, "ERROR "):
			if in {
				return violation, replay
			}
			in = true
		case !in:
		case violation == "" && strings.HasPrefix(line, "  violation: "):
			violation = causeRef.ReplaceAllString(strings.TrimSpace(strings.TrimPrefix(line, "  violation: ")), "")
		case violation == "" && strings.HasPrefix(line, "  suite error: "):
			violation = strings.TrimSpace(strings.TrimPrefix(line, "  suite error: "))
		case replay == "" && strings.HasPrefix(line, "  replay: "):
			replay = strings.TrimSpace(strings.TrimPrefix(line, "  replay: "))
		}
	}
	return violation, replay
}

// causeRef is how a failure refers to a cause printed above it, a
// violation several properties share.
var causeRef = regexp.MustCompile(`^cause [0-9]+ above, here: `)

// det4Where is the part of a DET-4 verdict that depends on how a
// nondeterministic runner's runs went: the instant, the alloc, the
// trace line where the first two runs differ and both versions of it.
var det4Where = regexp.MustCompile(`(?:@\S+: )?(DET-4 \(runner "[^"]*", seed [0-9]+\)): .*? differs from run 1's[^\n]*`)

// sameDiagnosis is a diagnosis with what may differ between a run and
// its replay masked.
func sameDiagnosis(s string) string {
	return det4Where.ReplaceAllString(s, "$1: ... differs from run 1's")
}
