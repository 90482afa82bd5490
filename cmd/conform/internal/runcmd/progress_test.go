package runcmd

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/suiterun"
	"github.com/allocsim/allocsim/reports"
	"github.com/shoenig/test/must"
)

// progressOf feeds a run of two runners (one announced, one not yet
// started) to a progress display and returns what it wrote.
func progressOf(tty bool) string {
	var b bytes.Buffer
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := newProgress(&b, tty, func() time.Time { at = at.Add(10 * time.Second); return at }, 2)
	p.event(suiterun.Event{Kind: suiterun.KindBuild})
	p.event(suiterun.Event{Kind: suiterun.KindRunnerStart, Runner: "mutant/x", Index: 0})
	p.event(suiterun.Event{Kind: suiterun.KindRunnerPlanned, Runner: "mutant/x", Index: 0, Total: 4})
	p.event(suiterun.Event{Kind: suiterun.KindProperty, Runner: "mutant/x", Property: reports.Property{ID: "A-1/a", Status: reports.Pass, Checks: 12, Elapsed: time.Second}})
	p.event(suiterun.Event{Kind: suiterun.KindProperty, Runner: "mutant/x", Property: reports.Property{ID: "A-1/b", Status: reports.Fail, Seed: 7, Check: 2}})
	p.event(suiterun.Event{Kind: suiterun.KindRunnerDone, Runner: "mutant/x", Index: 0,
		Result: reports.Runner{Name: "mutant/x", Properties: []reports.Property{{ID: "A-1/b", Status: reports.Fail}}}})
	p.finish()
	return b.String()
}

func TestProgressPlainLines(t *testing.T) {
	got := progressOf(false)
	must.Eq(t, `building the runners' tests
mutant/x: started
mutant/x  A-1/a  PASS  12 checks  1s
mutant/x  A-1/b  FAIL  seed 7 (check 2)  0s
mutant/x: does not conform (1 of 1 properties failed), NOT as expected
`, got)
}

// TestProgressOnATerminal: one status line redrawn in place: the bar,
// properties done of the total (a runner not started counted as the
// largest announced), checks, failures, elapsed, the runners in flight.
func TestProgressOnATerminal(t *testing.T) {
	got := progressOf(true)
	must.StrContains(t, got, "\r\033[K[===                     ] 1/8 properties · 12 checks · 0 failed · 40s · mutant/x")
	must.StrContains(t, got, "2/8 properties · 12 checks · 1 failed")
	must.StrContains(t, got, "mutant/x: does not conform (1 of 1 properties failed), NOT as expected\n")
	must.True(t, strings.HasSuffix(got, "\r\033[K"), must.Sprint("the status line is cleared at the end"))
	must.False(t, strings.Contains(got, "A-1/a  PASS"), must.Sprint("no per-property lines on a terminal"))
}
