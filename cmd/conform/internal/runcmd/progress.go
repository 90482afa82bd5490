package runcmd

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/suiterun"
	"github.com/allocsim/allocsim/reports"
)

// progress shows a run as it goes: on a terminal one status line redrawn
// in place (a bar, properties done of the known total, checks, failures,
// elapsed, the runners in flight); otherwise a plain line per finished
// property and per finished runner.
type progress struct {
	w       io.Writer
	tty     bool
	now     func() time.Time
	start   time.Time
	runners int
	// totals are the announced property counts per runner index.
	totals  map[int]int
	running map[int]string
	done    int
	checks  int
	failed  int
	drawn   bool
}

func newProgress(w io.Writer, tty bool, now func() time.Time, runners int) *progress {
	return &progress{w: w, tty: tty, now: now, start: now(), runners: runners, totals: map[int]int{}, running: map[int]string{}}
}

// event is suiterun's Progress callback.
func (p *progress) event(e suiterun.Event) {
	switch e.Kind {
	case suiterun.KindBuild:
		p.line("building the runners' tests")
	case suiterun.KindRunnerStart:
		p.running[e.Index] = e.Runner
		if !p.tty {
			p.line(fmt.Sprintf("%s: started", e.Runner))
		}
	case suiterun.KindRunnerPlanned:
		p.totals[e.Index] = e.Total
	case suiterun.KindProperty:
		p.done++
		p.checks += e.Property.Checks
		if e.Property.Status == reports.Fail || e.Property.Status == reports.Error {
			p.failed++
		}
		if !p.tty {
			p.line(propertyLine(e.Runner, e.Property))
		}
	case suiterun.KindRunnerDone:
		delete(p.running, e.Index)
		if !p.tty {
			p.line(runnerLine(e.Result))
		} else if len(e.Result.Failures()) > 0 && !e.Result.MeetsExpectation() {
			p.line(runnerLine(e.Result))
		}
	}
	if p.tty {
		p.draw()
	}
}

// line prints one line (above the status line on a terminal).
func (p *progress) line(s string) {
	if p.tty && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
	fmt.Fprintln(p.w, s)
	p.drawn = false
}

// draw redraws the status line.
func (p *progress) draw() {
	total := 0
	est := 0
	for _, n := range p.totals {
		total += n
		est = max(est, n)
	}
	total += est * (p.runners - len(p.totals)) // runners not started: as the largest seen
	frac := 0.0
	if total > 0 {
		frac = float64(p.done) / float64(total)
	}
	const width = 24
	n := min(int(frac*width), width)
	bar := strings.Repeat("=", n) + strings.Repeat(" ", width-n)
	var names []string
	for i := range p.runners {
		if name, ok := p.running[i]; ok {
			names = append(names, name)
		}
	}
	status := fmt.Sprintf("[%s] %d/%d properties · %d checks · %d failed · %s", bar, p.done, total, p.checks, p.failed, p.elapsed())
	if len(names) > 0 {
		status += " · " + strings.Join(names, ", ")
	}
	if len(status) > 160 {
		status = status[:157] + "..."
	}
	fmt.Fprint(p.w, "\r\033[K"+status)
	p.drawn = true
}

// finish ends the status line.
func (p *progress) finish() {
	if p.tty && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

func (p *progress) elapsed() string {
	return p.now().Sub(p.start).Round(time.Second).String()
}

// propertyLine is a finished property on a plain line.
func propertyLine(runner string, pr reports.Property) string {
	s := fmt.Sprintf("%s  %s  %s", runner, pr.ID, strings.ToUpper(string(pr.Status)))
	switch pr.Status {
	case reports.Pass:
		s += fmt.Sprintf("  %d checks", pr.Checks)
	case reports.Fail:
		s += fmt.Sprintf("  seed %d (check %d)", pr.Seed, pr.Check)
	}
	if pr.Status != reports.NotApplicable {
		s += fmt.Sprintf("  %s", pr.Elapsed.Round(10*time.Millisecond))
	}
	return s
}

// runnerLine is a finished runner.
func runnerLine(r reports.Runner) string {
	verdict := "conforms"
	if !r.Conforms() {
		verdict = fmt.Sprintf("does not conform (%d of %d properties failed)", len(r.Failures()), len(r.Properties))
	}
	exp := "as expected"
	if !r.MeetsExpectation() {
		exp = "NOT as expected"
	}
	return fmt.Sprintf("%s: %s, %s", r.Name, verdict, exp)
}
