package sim

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/internal/watchdog"
	"github.com/allocsim/allocsim/sim/trace"
)

// WatchConfig configures the stall watchdog of Test. The zero value
// watches with the default stall period and prints a `go test -run`
// command for the test.
type WatchConfig struct {
	// Stall is how long of real time the bubble may go without progress
	// (a return of one of its worlds' barriers) before the watchdog ends
	// the process with a diagnosis; zero means watchdog.DefaultStall
	// (10 s), negative turns the watchdog off. The -sim.stall flag and
	// $ALLOCSIM_STALL (0 turns it off) win over it.
	Stall time.Duration
	// Replay, if set, is the command that replays a seed (e.g.
	// ReplayCommand); the diagnosis ends with it for the stalled world's
	// seed. Nil means a `go test -run` command for the test.
	Replay func(seed uint64) string
	// Leaked, if set, is told of the goroutines the body left blocked in
	// the bubble when it returned (each described by what it waits for,
	// where, and where it was started); nil means Test fails t with them.
	// Nothing will ever wake them: they stay parked, and the test goes
	// on.
	Leaked func(goroutines []string)
}

// Test runs body in a testing/synctest bubble of its own, like
// synctest.Test, under a stall watchdog: a watchdog goroutine on the real
// clock, outside the bubble, reads the progress every World of the
// bubble publishes, and once the bubble has made no progress for the
// stall period (a barrier that does not return: DET-3, the world did not
// settle) it prints a diagnosis to standard error (the stalled worlds'
// runner, seed, virtual time and last settled step, why, and the stacks
// of the bubble's goroutines, those waiting for a sync lock first) and
// ends the process with exit status 2: a wedged bubble cannot be unwound.
// Goroutines the body leaves blocked in the bubble when it returns
// (which synctest.Test reports by panicking) are recovered from and
// reported (WatchConfig.Leaked), so one leaking run does not end the
// process. Every simulated run of the suite goes through Test.
func Test(t *testing.T, cfg WatchConfig, body func(t *testing.T)) {
	t.Helper()
	stall, err := watchdog.Stall(cfg.Stall)
	if err != nil {
		t.Fatal(err)
	}
	b := &bubbleWatch{test: t.Name(), cfg: cfg, stall: stall}
	stop := watchdog.Start(stall, b.probe, b.stalled)
	defer func() {
		stop()
		bubbles.forget(b)
	}()
	var left []string
	func() {
		defer func() {
			if r := recover(); r != nil {
				if !strings.HasPrefix(fmt.Sprint(r), bubbleDeadlock) {
					panic(r)
				}
				left = leftInBubble(b.id.Load())
			}
		}()
		synctest.Test(t, func(t *testing.T) {
			b.id.Store(watchdog.Bubble())
			bubbles.watch(b)
			defer b.bodyDone.Store(true)
			body(t)
		})
	}()
	if left == nil {
		return
	}
	if cfg.Leaked != nil {
		cfg.Leaked(left)
		return
	}
	t.Errorf("%d goroutines of the run were left blocked after it ended, want none (goroutines the runner started and never stopped):\n\t%s",
		len(left), strings.Join(left, "\n\t"))
}

// bubbles are the bubbles Test watches, by bubble number (unique in the
// process), so that a World finds the watch of the bubble it is built in.
var bubbles = bubbleRegistry{m: map[uint64]*bubbleWatch{}}

type bubbleRegistry struct {
	mu sync.Mutex
	m  map[uint64]*bubbleWatch
}

func (r *bubbleRegistry) watch(b *bubbleWatch) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m[b.id.Load()] = b
}

func (r *bubbleRegistry) forget(b *bubbleWatch) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id := b.id.Load(); r.m[id] == b {
		delete(r.m, id)
	}
}

func (r *bubbleRegistry) lookup(id uint64) *bubbleWatch {
	if id == 0 {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[id]
}

// bubbleWatch is one bubble of Test, as its watchdog sees it.
type bubbleWatch struct {
	test  string
	cfg   WatchConfig
	stall time.Duration
	id    atomic.Uint64
	// bodyDone is set once the test body returned: synctest.Test then
	// waits for the bubble's goroutines to exit, which must not take long.
	bodyDone atomic.Bool

	mu     sync.Mutex
	worlds []*worldWatch // open worlds, in creation order
}

// probe is the watchdog's Probe: the progress of the bubble's open
// worlds, summed (a world leaving changes it too), and whether anything
// can stall (an open world, or the wait for the goroutines to exit).
func (b *bubbleWatch) probe() (uint64, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var sum uint64
	for _, ww := range b.worlds {
		sum += ww.progress.Load()
	}
	return sum, len(b.worlds) > 0 || b.bodyDone.Load()
}

func (b *bubbleWatch) add(ww *worldWatch) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.worlds = append(b.worlds, ww)
}

func (b *bubbleWatch) remove(ww *worldWatch) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.worlds = slices.DeleteFunc(b.worlds, func(x *worldWatch) bool { return x == ww })
}

// stalled is the watchdog's onStall: diagnose, print, end the process.
func (b *bubbleWatch) stalled() {
	b.mu.Lock()
	worlds := slices.Clone(b.worlds)
	b.mu.Unlock()
	fmt.Fprint(os.Stderr, b.diagnose(worlds, watchdog.Goroutines(watchdog.Dump(), b.id.Load())))
	os.Exit(2)
}

// What a world's barrier waits for (worldWatch.phase).
const (
	phaseStepping int32 = iota // no barrier: between two (observing, world events, the caller's code)
	phaseSettle                // synctest.Wait at the start of a settle
	phaseRelease               // synctest.Wait after releasing a held call
	phaseAdvance               // the Mock's Add, which waits for each fired timer's goroutines
)

// worldWatch is what a World publishes for the watchdog: atomics, and
// parts that are read under their own locks, never the bubble's channels.
// A world built outside a watched bubble publishes to nobody.
type worldWatch struct {
	bubble *bubbleWatch // nil: not watched
	// Fixed at New.
	id, runner, scenario string
	seed                 uint64
	scenarioText         string
	gate                 *gate
	trace                *trace.Recorder

	progress atomic.Uint64 // barriers returned
	steps    atomic.Uint64 // settled steps
	now      atomic.Int64  // virtual time of the last settled step, Unix ns
	phase    atomic.Int32
	target   atomic.Int64 // phaseAdvance: where to, Unix ns
}

// watchWorld attaches w to the watch of the bubble it is built in, if
// Test watches that bubble.
func (w *World) watchWorld() *worldWatch {
	ww := &worldWatch{id: w.id, runner: w.cfg.Factory.Name, scenario: w.sc.Name, seed: w.sc.Seed, gate: w.gate, trace: w.rec}
	ww.now.Store(w.clk.Now().UnixNano())
	if b := bubbles.lookup(watchdog.Bubble()); b != nil {
		// The scenario is printed now: its jobs are not the watchdog's to
		// read once the run has started.
		ww.bubble, ww.scenarioText = b, w.sc.String()
		b.add(ww)
	}
	return ww
}

// unwatch ends the watch of a closed world.
func (ww *worldWatch) unwatch() {
	if ww.bubble != nil {
		ww.bubble.remove(ww)
	}
}

// enter records the barrier the world is about to wait in.
func (ww *worldWatch) enter(phase int32) { ww.phase.Store(phase) }

// advancing records a clock advance to t.
func (ww *worldWatch) advancing(t time.Time) {
	ww.target.Store(t.UnixNano())
	ww.phase.Store(phaseAdvance)
}

// passed records that a barrier returned: progress.
func (ww *worldWatch) passed() {
	ww.phase.Store(phaseStepping)
	ww.progress.Add(1)
}

// settled records a settled step at virtual time now.
func (ww *worldWatch) settled(step uint64, now time.Time) {
	ww.steps.Store(step)
	ww.now.Store(now.UnixNano())
}

// heldKeys are the calls held at the world's gate, sorted.
func (ww *worldWatch) heldKeys() []string {
	ww.gate.mu.Lock()
	keys := make([]string, 0, len(ww.gate.waiting))
	for _, c := range ww.gate.waiting {
		keys = append(keys, c.key)
	}
	ww.gate.mu.Unlock()
	slices.Sort(keys)
	return keys
}

// runPattern is a -run pattern that selects exactly the test name.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}
