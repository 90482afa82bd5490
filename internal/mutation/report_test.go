package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/report.md")

// goldenRun has one result of every kind.
func goldenRun() *Run {
	return &Run{
		Date:      "2026-01-02 03:04 UTC",
		Commit:    "abc1234",
		Dirty:     []string{"impl/client"},
		Command:   "go run ./internal/mutation -sample 7 -seed 1 -checks 4",
		Judge:     (&judge{pkg: "./properties", tests: defaultTests, checks: 4, budget: 120e9}).Describe(),
		JudgeKey:  "k",
		Timeout:   "1m0s",
		Packages:  []string{"impl/allocrunner", "impl/client"},
		Files:     2,
		Generated: 40,
		Operators: map[string]int{opNegate: 10, opCallDrop: 20, opAssign: 8, opArith: 2},
		Sample:    7,
		Seed:      1,
		Baseline:  Baseline{Build: 1.3, Run: 2.1},
		Results: []Result{
			{ID: "impl/allocrunner/kill.go:96:31:cond-negate", Operator: opNegate, Diff: "if st == nil || st.State != x { → if st != nil || st.State != x {", Status: Survived, Build: 1.2, Run: 2.3},
			{ID: "impl/allocrunner/kill.go:101:3:call-drop", Operator: opCallDrop, Diff: "wg.Wait() → (nothing)", Status: Killed, By: []string{"TestReferenceConforms/AR-9/kill-order"}, Build: 1.1, Run: 1.9},
			{ID: "impl/allocrunner/run.go:12:2:assign-drop", Operator: opAssign, Diff: "x = y → (nothing)", Status: Invalid, Detail: "type check: declared and not used: x"},
			{ID: "impl/client/sync.go:20:2:call-drop", Operator: opCallDrop, Diff: "c.mu.Lock() → (nothing)", Status: Killed, Detail: "fatal error: sync: unlock of unlocked mutex", Build: 1.0, Run: 0.6},
			{ID: "impl/client/sync.go:30:9:arith", Operator: opArith, Diff: "n := a + `b` → n := a - `b`", Status: Survived, Build: 1.4, Run: 2.2},
			{ID: "impl/client/sync.go:44:2:call-drop", Operator: opCallDrop, Diff: "close(ch) → (nothing)", Status: Timeout, Detail: "still running after 1m0s", By: []string{"TestMinimalConformsToClientCommunication/SYNC-5/spaced"}, Build: 1.0, Run: 60.5},
			{ID: "impl/client/sync.go:50:2:call-drop", Operator: opCallDrop, Diff: "f() → (nothing)", Status: Errored, Detail: "build failed: impl/client/pull.go:3:1: syntax error"},
			{ID: "impl/client/sync.go:60:5:cond-negate", Operator: opNegate, Diff: "if a || b { → if a && b {", Status: Killed, By: []string{"TestReferenceConforms/A/1", "TestReferenceConforms/A/2", "TestReferenceConforms/B/1", "TestMinimalConformsToClientCommunication/B/1"}, Build: 1.0, Run: 3.0},
			{ID: "impl/client/sync.go:70:2:assign-drop", Operator: opAssign, Diff: "n++ → (nothing)", Status: Pending},
		},
	}
}

func TestReportGolden(t *testing.T) {
	ann := Annotations{
		"impl/client/sync.go:30:9:arith":             "n is only compared with zero | never negative",
		"impl/client/sync.go:60:5:cond-negate":       "wrongly argued",
		"impl/client/gone.go:1:1:call-drop":          "code since deleted",
		"impl/allocrunner/kill.go:96:31:cond-negate": "",
	}
	delete(ann, "impl/allocrunner/kill.go:96:31:cond-negate")
	generated := map[string]bool{}
	for _, r := range goldenRun().Results {
		generated[r.ID] = true
	}
	gaps := Annotations{
		"impl/allocrunner/kill.go:96:31:cond-negate": "reached only by a race no scenario makes",
		"impl/allocrunner/kill.go:101:3:call-drop":   "since killed",
	}
	// Every annotation is pinned to its mutant but one, whose code
	// changed since it was argued: it is not applied, and the report
	// says why.
	ann["impl/client/sync.go:70:2:assign-drop"] = "argued for the n++ that was there before"
	pins, current := map[string]string{}, map[string]string{}
	for _, r := range goldenRun().Results {
		current[r.ID] = "0000aaaa"
	}
	for id := range ann {
		pins[id] = "0000aaaa"
	}
	for id := range gaps {
		pins[id] = "0000aaaa"
	}
	current["impl/client/sync.go:70:2:assign-drop"] = "0000bbbb"
	ann, revisit := ann.pinnedTo(pins, current, "equivalent.txt")
	gaps, gapRevisit := gaps.pinnedTo(pins, current, "gaps.txt")
	revisit = append(revisit, gapRevisit...)
	got := renderReport(reportInput{Run: goldenRun(), Annotations: ann, Gaps: gaps, Revisit: revisit, Generated: generated, EstimateFor: 300, Parallel: 1})
	path := filepath.Join("testdata", "golden", "report.md")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (run go test ./internal/mutation -run TestReportGolden -update)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Fatalf("%s differs (-want +got):\n%s", path, d)
	}
}

// TestScore: (killed + timeout) / (killed + timeout + survived − equivalent).
func TestScore(t *testing.T) {
	r := goldenRun()
	c := count(r.Results, Annotations{"impl/client/sync.go:30:9:arith": "x"})
	if c.killed != 3 || c.timeout != 1 || c.survived != 2 || c.equivalent != 1 || c.invalid != 1 || c.errors != 1 || c.pending != 1 {
		t.Errorf("counts = %+v", c)
	}
	if got := c.score(); got != "80.0% (4/5)" {
		t.Errorf("score = %s", got)
	}
	if got := (counts{}).score(); got != "n/a" {
		t.Errorf("empty score = %s", got)
	}
}
