package prop

import (
	"errors"
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// Outcome is what one run of one scenario found.
type Outcome struct {
	// Violations are what the checker (and the world's harness checks)
	// found, in order; the run stopped at the first checker violation.
	Violations []Violation
	// Harness is set when the suite itself failed (an invalid drawn
	// scenario, a checker panic): a bug of the suite, not of the runner.
	Harness error
	// Trace holds the run's records; Before, how many of them precede
	// the first violation.
	Trace  []trace.Record
	Before int
	// End is the virtual instant the run stopped at.
	End time.Time
	// Steps is how many settled instants it took.
	Steps uint64
	// Attachments are files a checker attached to its violation (View.
	// Attach), by file suffix; a failure writes them as artifacts.
	Attachments map[string][]byte
	// Reached are the situations of the property's catalogue the run
	// reached (View.Reach).
	Reached map[string]bool
}

// Failed reports whether the runner broke the property in this run.
func (o Outcome) Failed() bool { return len(o.Violations) > 0 }

// RunConfig configures one run.
type RunConfig struct {
	Property Property
	Factory  interfaces.Factory
	Scenario scenario.Scenario
	// Stall is the stall watchdog's period (sim.WatchConfig.Stall).
	Stall time.Duration
	// Replay prints the replay command of a seed, for the watchdog.
	Replay func(seed uint64) string
	// FreeRunning runs with sim.HoldNone whatever the property's Hold.
	FreeRunning bool
	// Budget bounds the run while it runs (zero: DefaultCheckBudget).
	Budget CheckBudget
}

// Execute runs one scenario of a property in a bubble of its own under
// t (sim.Test) and checks it. It never fails t: everything it finds is in
// the Outcome.
func Execute(t *testing.T, rc RunConfig) Outcome {
	var out Outcome
	var left []string
	budget := watchBudget(rc.Budget)
	defer budget.end()
	sim.Test(t, sim.WatchConfig{Stall: rc.Stall, Replay: rc.Replay, Leaked: func(g []string) { left = g }}, func(t *testing.T) {
		out = execute(rc, budget)
	})
	if left != nil && !leakReported(out) {
		// Goroutines the world's own count missed (not labelled with a
		// client incarnation, e.g. started from a clock callback).
		out.Violations = append(out.Violations, Violation{At: out.End,
			World: fmt.Sprintf("%s (runner %q, seed %d): %d goroutines of the run were left blocked after it ended, want none (goroutines the runner started and never stopped): %s",
				LeakRule, rc.Factory.Name, rc.Scenario.Seed, len(left), strings.Join(left, "; "))})
		if len(out.Violations) == 1 {
			out.Before = len(out.Trace)
		}
	}
	return out
}

// ruleFirst matches a world verdict that names its rule first
// ("DET-1 (runner ...").
var ruleFirst = regexp.MustCompile(`^[A-Z]+(-[0-9]+)? \(runner `)

// LeakRule names the world's goroutine-leak verdict: no SPEC section
// pins it, DESIGN.md's rule that every goroutine has an owner that stops
// it does.
const LeakRule = "LEAK"

// leakReported reports whether the world already reported goroutines
// left by a shut-down client.
func leakReported(out Outcome) bool {
	for _, v := range out.Violations {
		if v.Rule() == LeakRule {
			return true
		}
	}
	return false
}

func execute(rc RunConfig, budget *budgetWatch) (out Outcome) {
	p, sc := rc.Property, rc.Scenario
	hold := p.Hold
	if rc.FreeRunning {
		hold = sim.HoldNone
	}
	unbatched := p.Unbatched != nil && p.Unbatched(sc)
	w, err := sim.New(sim.Config{Scenario: sc, Factory: rc.Factory, Hold: hold, UnbatchedStateDB: unbatched})
	if err != nil {
		out.Harness = fmt.Errorf("property %s drew a scenario the world refuses: %w", p.ID, err)
		return out
	}
	v := &View{World: w, Scenario: w.Scenario(), situations: p.Situations}
	var chk Checker
	func() {
		defer func() {
			if r := recover(); r != nil {
				out.Harness = fmt.Errorf("property %s: checker panicked: %v\n%s", p.ID, r, debug.Stack())
			}
		}()
		chk = p.New(w.Scenario())
	}()
	if chk != nil {
		runChecked(w, v, chk, p, &out, budget, rc.Factory.Name)
	}
	checked := v.cursor // the records the checker had seen when it stopped
	out.Reached = v.reached
	closeErr := w.Close()
	out.Trace = w.Trace().From(0) // the closed world's own: nothing appends to it any more
	out.End, out.Steps = w.Now(), w.Steps()
	if closeErr != nil && out.Harness == nil {
		for _, msg := range splitJoined(closeErr) {
			if strings.HasPrefix(msg, "client incarnation ") && strings.Contains(msg, " goroutines after Shutdown returned") {
				msg = fmt.Sprintf("%s (runner %q, seed %d): %s", LeakRule, rc.Factory.Name, sc.Seed, msg)
			}
			if !ruleFirst.MatchString(msg) {
				msg = fmt.Sprintf("runner %q, seed %d: %s", rc.Factory.Name, sc.Seed, msg)
			}
			out.Violations = append(out.Violations, Violation{At: out.End, World: msg})
		}
	}
	// A checker's violation is at the instant of the last records it saw
	// (the end-of-run records Close writes at that instant come after);
	// a harness violation found at Close follows the whole trace.
	out.Before = len(out.Trace)
	if len(out.Violations) > 0 && out.Violations[0].World == "" {
		out.Before = min(checked, len(out.Trace))
		// A final check may place its violation earlier (a history
		// judged at the end): the records up to that instant.
		if at := out.Violations[0].At; !at.IsZero() {
			for out.Before > 0 && out.Trace[out.Before-1].At.After(at) {
				out.Before--
			}
		}
	}
	return out
}

// runChecked starts the client and advances the world to the scenario's
// end and through the liveness phase, checking every settled instant,
// then checks the end. A panic on the world's goroutine (the runner's
// constructor, Start, a checker) becomes a violation or a harness error;
// the caller closes the world either way.
func runChecked(w *sim.World, v *View, chk Checker, p Property, out *Outcome, budget *budgetWatch, runner string) {
	phase := "client start"
	defer func() {
		if r := recover(); r != nil {
			out.Violations = append(v.violations, Violation{At: w.Now(), What: "panic during " + phase,
				Got: fmt.Sprint(r), Want: "none"})
			out.Harness = nil
		}
	}()
	if err := w.Start(); err != nil {
		v.Violate(Violation{What: "client start", Got: err.Error(), Want: "no error"})
		out.Violations = v.violations
		return
	}
	step := func() bool {
		v.New = w.Trace().From(v.cursor)
		v.cursor += len(v.New)
		chk.Settled(v)
		if v.Failed() {
			return true
		}
		if x, over := budget.exceeded(w, v.cursor, runner, w.Scenario().Seed); over {
			v.violations = append(v.violations, x)
			return true
		}
		return false
	}
	phase = "the run"
	if !w.RunUntil(step, w.Scenario().End().Sub(w.Now())) && p.Liveness > 0 {
		phase = "healing"
		if err := w.Heal(); err != nil {
			v.Violate(Violation{What: "client restart after healing", Got: err.Error(), Want: "no error"})
		}
		v.Phase = Liveness
		phase = "the liveness phase"
		if !v.Failed() {
			w.RunUntil(step, p.Liveness)
		}
	}
	if !v.Failed() {
		v.Phase, v.New = Final, nil
		phase = "the final check"
		chk.Final(v)
	}
	out.Violations = v.violations
	out.Attachments = v.attachments
}

// splitJoined splits an errors.Join error into its messages.
func splitJoined(err error) []string {
	var j interface{ Unwrap() []error }
	if errors.As(err, &j) {
		var out []string
		for _, e := range j.Unwrap() {
			out = append(out, splitJoined(e)...)
		}
		return out
	}
	return []string{strings.TrimSpace(err.Error())}
}
