package sim

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/allocsim/allocsim/internal/watchdog"
	"github.com/allocsim/allocsim/sim/trace"
)

// The diagnosis of a stalled bubble explains the stall with one of these.
const (
	// whyLock is the diagnosis when a goroutine of the bubble waits for a
	// sync lock: the runner held one across an injected call the world
	// holds at its gate (see Hold).
	whyLock = "A goroutine waiting for a sync.Mutex or sync.RWMutex is not durably blocked, so synctest.Wait never returns " +
		"and the world never settles (DET-3). Locks held across injected calls (driver, CSI, state DB writes, RPCs: " +
		"the world holds those calls at its gate) must be channels, like the stateLock of impl/interfaces' doc: " +
		"the goroutine waiting for the lock and the one holding a call at the gate are listed below."
	// whySuite is the diagnosis when only the suite's own code keeps
	// running (suiteStall).
	whySuite = "The only goroutines of the bubble that are not durably blocked run the suite's own code (a property's " +
		"checker or a linearizability search) and did not finish within the stall period: the suite's fault, not the " +
		"runner's. Its budgets should have ended the check as Unknown: see the stacks below."
	// whyOther is the diagnosis otherwise.
	whyOther = "After each clock advance every goroutine of the bubble must block durably (on the clock, a channel " +
		"of the bubble or an injected call) before the world acts (DET-3). A goroutine that is running or spinning, " +
		"waits for a sync.Cond, a WaitGroup made outside the bubble, I/O or a syscall is not durably blocked, " +
		"so synctest.Wait never returns: see the goroutines that are not durably blocked below."
	// whyExit is the diagnosis when the body returned and no world is
	// open: synctest.Test waits for the bubble's goroutines to exit.
	whyExit = "The test body returned but goroutines of the bubble did not exit, and not all of them are durably " +
		"blocked (synctest.Test waits for them): a runner's goroutine outlived its Shutdown."
)

// maxDurableStacks bounds the durably blocked goroutines printed.
const maxDurableStacks = 30

// extrasWait bounds the diagnosis' reads that take a lock of the bubble's
// (held calls, trace tail).
const extrasWait = time.Second

// diagnose renders the stall of the bubble's worlds: per world the
// violation, the world's state, seed, scenario and last trace lines; then
// why, and the goroutines of the bubble by what they wait for; then the
// replay command.
func (b *bubbleWatch) diagnose(worlds []*worldWatch, gs []watchdog.Goroutine) string {
	var out strings.Builder
	fmt.Fprintf(&out, "\nallocsim: stall watchdog: %s made no progress for %s of real time; "+
		"ending the process (a wedged synctest bubble cannot be unwound)\n", b.test, b.stall)
	groups := groupGoroutines(gs)
	suite := suiteStall(groups)
	for _, ww := range worlds {
		ww.describe(&out, suite)
	}
	if len(worlds) == 0 {
		fmt.Fprintf(&out, "--- violation\nDET-3: the bubble did not settle after the test body returned\n")
	}
	why := whyOther
	switch {
	case suite:
		why = whySuite
	case len(groups[0].gs) > 0:
		why = whyLock
	case len(worlds) == 0:
		why = whyExit
	}
	fmt.Fprintf(&out, "--- why\n%s\n", why)
	for _, g := range groups {
		if len(g.gs) == 0 {
			continue
		}
		fmt.Fprintf(&out, "--- %d %s\n", len(g.gs), g.title)
		for i, gr := range g.gs {
			if g.limit > 0 && i == g.limit {
				fmt.Fprintf(&out, "... %d more\n", len(g.gs)-i)
				break
			}
			fmt.Fprintf(&out, "%s\n\n", gr.Stack)
		}
	}
	replay := fmt.Sprintf("go test %s -run '%s'", watchdog.PackageDir(), runPattern(b.test))
	if b.cfg.Replay != nil && len(worlds) > 0 {
		replay = b.cfg.Replay(worlds[0].seed)
	}
	fmt.Fprintf(&out, "To reproduce: %s\n", replay)
	return out.String()
}

// SuiteStall begins the diagnosis' violation when the goroutine that
// did not finish runs the suite's own code (a checker, a linearizability
// search), not the runner's: a fault of the suite, never charged to the
// runner.
const SuiteStall = "SUITE: the suite's own work did not finish"

// suiteStall reports whether what keeps the bubble from settling is the
// suite's own work: no goroutine waits for a sync lock, and every one
// that is not durably blocked runs the suite's code (the world's
// goroutine inside a checker or a history check).
func suiteStall(groups [4]goroutineGroup) bool {
	if len(groups[0].gs) > 0 || len(groups[2].gs) == 0 {
		return false
	}
	for _, g := range groups[2].gs {
		if !strings.Contains(g.Stack, "github.com/allocsim/allocsim/linearizability.") &&
			!strings.Contains(g.Stack, "github.com/allocsim/allocsim/properties/internal/") {
			return false
		}
		if strings.Contains(g.Stack, "testing/synctest.Wait(") {
			return false // a world's barrier: it waits for others
		}
	}
	return true
}

// describe writes the world's sections; suite says the stall is the
// suite's own work (suiteStall).
func (ww *worldWatch) describe(out *strings.Builder, suite bool) {
	if suite {
		fmt.Fprintf(out, "--- violation\n%s (runner %q, seed %d, scenario %q, world %s): a fault of the suite, not of the runner; please report it with this diagnosis\n",
			SuiteStall, ww.runner, ww.seed, ww.scenario, ww.id)
	} else {
		fmt.Fprintf(out, "--- violation\nDET-3: the world did not settle (runner %q, seed %d, scenario %q, world %s)\n",
			ww.runner, ww.seed, ww.scenario, ww.id)
	}
	steps := ww.steps.Load()
	last := fmt.Sprintf("%d", steps)
	if steps == 0 {
		last = "none (the world has not settled once)"
	}
	fmt.Fprintf(out, "--- world %s\nvirtual time:      %s\nlast settled step: %s\nwaiting for:       %s\n",
		ww.id, vtime(ww.now.Load()), last, ww.waitingFor(steps+1))
	var mu sync.Mutex
	var held, tail []string
	if !watchdog.Within(extrasWait, func() {
		h, t := ww.heldKeys(), ww.trace.Tail(20)
		mu.Lock()
		held, tail = h, t
		mu.Unlock()
	}) {
		fmt.Fprintf(out, "(the held calls and the trace were not readable within %s: a lock of the world is held)\n", extrasWait)
	}
	mu.Lock()
	defer mu.Unlock()
	fmt.Fprintf(out, "held at the gate:  %d", len(held))
	for _, k := range held {
		fmt.Fprintf(out, "\n  %s", k)
	}
	fmt.Fprintf(out, "\n--- seed\n%d\n--- scenario\n%s", ww.seed, ww.scenarioText)
	if len(tail) > 0 {
		fmt.Fprintf(out, "--- last %d trace lines\n%s\n", len(tail), strings.Join(tail, "\n"))
	}
}

// waitingFor says what the world's current barrier waits for.
func (ww *worldWatch) waitingFor(step uint64) string {
	switch ww.phase.Load() {
	case phaseSettle:
		return fmt.Sprintf("synctest.Wait, settling step %d (it returns once every goroutine of the bubble is durably blocked)", step)
	case phaseRelease:
		return fmt.Sprintf("synctest.Wait after releasing a held call, settling step %d", step)
	case phaseAdvance:
		return fmt.Sprintf("the clock advance to %s (the Mock waits for the goroutines of each timer it fires to block)",
			vtime(ww.target.Load()))
	}
	return "no barrier of the world's: it is between two (observing, running a world event, a clock advance of Close), " +
		"or the caller's goroutine is busy or blocked outside the world (see the stacks)"
}

func vtime(unixNano int64) string {
	return time.Unix(0, unixNano).UTC().Format(trace.TimeFormat)
}

// goroutineGroup is a section of the diagnosis' goroutines.
type goroutineGroup struct {
	title string
	limit int // 0: all
	gs    []watchdog.Goroutine
}

// groupGoroutines sorts the bubble's goroutines into, in order: those
// waiting for a sync lock, those holding an injected call at the world's
// gate, the others that are not durably blocked, the durably blocked
// rest.
func groupGoroutines(gs []watchdog.Goroutine) [4]goroutineGroup {
	groups := [4]goroutineGroup{
		{title: "goroutine(s) of the bubble waiting for a sync lock (not durably blocked)"},
		{title: "goroutine(s) of the bubble holding an injected call at the world's gate"},
		{title: "other goroutine(s) of the bubble that are not durably blocked"},
		{title: "durably blocked goroutine(s) of the bubble", limit: maxDurableStacks},
	}
	for _, g := range gs {
		i := 3
		switch {
		case g.LockWait():
			i = 0
		case strings.Contains(g.Stack, "/sim.(*gate).hold("):
			i = 1
		case !g.Durable():
			i = 2
		}
		groups[i].gs = append(groups[i].gs, g)
	}
	return groups
}
