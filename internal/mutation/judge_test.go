package main

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func readFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}

func scan(t *testing.T, text string) output {
	t.Helper()
	var o output
	for _, l := range strings.Split(text, "\n") {
		o.read(l)
	}
	o.failed = leaves(o.failed)
	return o
}

// TestScanOutput: the failing leaves, in order; crashes; the binary's
// own timeout; no tests.
func TestScanOutput(t *testing.T) {
	o := scan(t, strings.Join([]string{
		"--- FAIL: TestReferenceConforms (3.1s)",
		"    --- FAIL: TestReferenceConforms/AR-8 (1.0s)",
		"        --- FAIL: TestReferenceConforms/AR-8/client-status-every-instant (1.0s)",
		"    --- FAIL: TestReferenceConforms/SYNC-5 (2.0s)",
		"        --- FAIL: TestReferenceConforms/SYNC-5/spaced (2.0s)",
		"        --- FAIL: TestReferenceConforms/SYNC-5/spaced (2.0s)",
		"fatal error: sync: unlock of unlocked mutex",
		"panic: later",
		"FAIL",
	}, "\n"))
	want := []string{"TestReferenceConforms/AR-8/client-status-every-instant", "TestReferenceConforms/SYNC-5/spaced"}
	if diff := cmp.Diff(want, o.failed); diff != "" {
		t.Errorf("failed (-want +got):\n%s", diff)
	}
	if o.crash != "fatal error: sync: unlock of unlocked mutex" || o.timedOut || o.noTests {
		t.Errorf("output = %+v", o)
	}
	if o := scan(t, "panic: test timed out after 1m0s\n"); !o.timedOut {
		t.Error("the binary's timeout not seen")
	}
	if o := scan(t, "testing: warning: no tests to run\nPASS\n"); !o.noTests {
		t.Error("no tests not seen")
	}
}

func TestShortTestName(t *testing.T) {
	for in, want := range map[string]string{
		"TestReferenceConforms/AR-8/x":                    "reference: AR-8/x",
		"TestMinimalConformsToClientCommunication/SYNC-5": "minimal: SYNC-5",
		"TestOther/x":           "TestOther/x",
		"TestReferenceConforms": "TestReferenceConforms",
	} {
		if got := shortTestName(in); got != want {
			t.Errorf("shortTestName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestJudgeFlags: the suite's flags, and the judge's description.
func TestJudgeFlags(t *testing.T) {
	j := &judge{pkg: "./properties", tests: defaultTests, checks: 4, budget: 120e9}
	got := strings.Join(j.testArgs("/tmp/a"), " ")
	want := "-test.run=" + defaultTests + " -test.count=1 -test.failfast -test.paniconexit0 -allocsim.checks=4 -allocsim.budget=2m0s -allocsim.artifacts=/tmp/a"
	if got != want {
		t.Errorf("testArgs = %s\nwant       %s", got, want)
	}
	if d := j.Describe(); !strings.Contains(d, "-overlay=") || !strings.Contains(d, "-allocsim.checks=4") {
		t.Errorf("Describe = %s", d)
	}
}

// TestTouchesSync: the mutants the race stage judges again are those that
// drop a go or defer statement or change a line that synchronizes.
func TestTouchesSync(t *testing.T) {
	for _, c := range []struct {
		m    Mutant
		want bool
	}{
		{Mutant{Operator: "defer-drop", Old: "defer l.mu.Unlock()", New: "l.mu.Unlock()"}, true},
		{Mutant{Operator: "go-drop", Old: "go ar.destroy()", New: "ar.destroy()"}, true},
		{Mutant{Operator: "call-drop", Old: "r.mu.RLock()"}, true},
		{Mutant{Operator: "call-drop", Old: "defer func() { <-ar.killSem }()"}, true},
		{Mutant{Operator: "cond-negate", Old: "if len(h.restored) > 0 {", New: "if len(h.restored) <= 0 {"}, false},
		{Mutant{Operator: "call-drop", Old: "maps.Copy(env, prev.Env)"}, false},
	} {
		if got := touchesSync(c.m); got != c.want {
			t.Errorf("touchesSync(%s) = %v, want %v", c.m.Diff(), got, c.want)
		}
	}
}
