package sim

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/minimal"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
)

// The checks proved on deliberately wrong runners, as fstest proves
// itself on broken file systems: each is the minimal runner (impl/minimal)
// with Run replaced by one that pushes what a task runner would, wrongly.

// wrongRunner is the minimal runner with another Run.
type wrongRunner struct {
	interfaces.AllocRunner
	cfg *interfaces.Config
	run func(cfg *interfaces.Config) *structs.Allocation
}

func (r *wrongRunner) Run() { r.cfg.StateUpdater.AllocStateUpdated(r.run(r.cfg)) }

// wrongFactory is the runner name on the reference client whose alloc
// runners push run(cfg) from Run.
func wrongFactory(name string, run func(cfg *interfaces.Config) *structs.Allocation) interfaces.Factory {
	return reference.WithAllocRunner(name, func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
		ar, err := minimal.NewAllocRunner(cfg)
		if err != nil {
			return nil, err
		}
		return &wrongRunner{AllocRunner: ar, cfg: cfg, run: run}, nil
	})
}

// runningAlloc is cfg's alloc running task t1 with the given events.
func runningAlloc(cfg *interfaces.Config, startedAt time.Time, events ...*structs.TaskEvent) *structs.Allocation {
	a := cfg.Alloc.CopySkipJob()
	a.ClientStatus = structs.AllocClientStatusRunning
	ts := structs.NewTaskState()
	for _, e := range events {
		ts.AppendEvent(e)
	}
	ts.State, ts.StartedAt = structs.TaskStateRunning, startedAt
	a.TaskStates = map[string]*structs.TaskState{"t1": ts}
	return a
}

// timePackage stamps with time.Now and waits with time.Sleep, never the
// injected clock: inside the simulation the time package is the
// bubble's clock, kept in step with the world's (instep.go). began
// keeps the injected clock's instant at which each alloc's Run began.
var (
	began       sync.Map // alloc ID -> time.Time
	timePackage = wrongFactory("timepackage", func(cfg *interfaces.Config) *structs.Allocation {
		began.Store(cfg.Alloc.ID, cfg.Clock.Now())
		time.Sleep(300 * time.Millisecond)
		return runningAlloc(cfg, time.Now(),
			structs.NewTaskEvent(structs.TaskReceived, time.Now()),
			structs.NewTaskEvent(structs.TaskSetup, time.Now()))
	})
)

// foreignClock stamps "Task Setup" and StartedAt with a clock of its
// own, an hour behind the world's.
var foreignClock = wrongFactory("foreignclock", func(cfg *interfaces.Config) *structs.Allocation {
	return runningAlloc(cfg, time.Now().Add(-time.Hour),
		structs.NewTaskEvent(structs.TaskReceived, cfg.Clock.Now()),
		structs.NewTaskEvent(structs.TaskSetup, time.Now().Add(-time.Hour)))
})

// latePush reads the injected clock but pushes its change a second
// later (SYNC-1 pushes at once).
var latePush = wrongFactory("latepush", func(cfg *interfaces.Config) *structs.Allocation {
	at := cfg.Clock.Now()
	cfg.Clock.Sleep(time.Second)
	return runningAlloc(cfg, at, structs.NewTaskEvent(structs.TaskReceived, at))
})

// mapOrder leaks map iteration order into ClientDescription: eight keys,
// so two runs order them alike with probability 1/8 per alloc.
var mapOrder = wrongFactory("maporder", func(cfg *interfaces.Config) *structs.Allocation {
	a := runningAlloc(cfg, cfg.Clock.Now(), structs.NewTaskEvent(structs.TaskReceived, cfg.Clock.Now()))
	var keys []string
	for k := range map[string]bool{"a": true, "b": true, "c": true, "d": true, "e": true, "f": true, "g": true, "h": true} {
		keys = append(keys, k)
	}
	a.ClientDescription = "tasks " + strings.Join(keys, ",")
	return a
})

func twoAllocs() scenario.Scenario { return simpleScenario(nil, simpleJob("j1", 2, nil)) }

// TestTimePackageInStep: a runner on the time package sees the world's
// now, and its sleeps take their virtual duration: its stamps pass the
// DET-1 check, and the world observes its push at the instant it made it.
func TestTimePackageInStep(t *testing.T) {
	if !vclock.Forked() {
		t.Skip("the time package is in step exactly only on the clock fork: upstream's Mock sleeps 1 ms of the bubble's time per fired timer (instep.go)")
	}
	Test(t, WatchConfig{}, func(t *testing.T) {
		sc := twoAllocs()
		must.True(t, time.Now().Before(sc.Start), must.Sprint("the bubble starts at its own epoch"))
		w, err := Run(Config{Scenario: sc, Factory: timePackage})
		must.NoError(t, err)
		n := 0
		for _, r := range w.Trace().Records() {
			if r.Kind != trace.KindTaskEvent || !strings.Contains(r.Msg, "Task Setup") {
				continue
			}
			at, ok := began.Load(r.Alloc)
			must.True(t, ok)
			must.Eq(t, 300*time.Millisecond, r.At.Sub(at.(time.Time)), must.Sprint("the sleep's virtual duration"))
			n++
		}
		must.Eq(t, 2, n, must.Sprint(w.Trace().Tail(30)))
	})
}

// TestDET1ForeignClock: a runner stamping with a clock of its own is
// reported once, at Close, as DET-1 with the first offending stamp and
// the count.
func TestDET1ForeignClock(t *testing.T) {
	Test(t, WatchConfig{}, func(t *testing.T) {
		sc := twoAllocs()
		w, err := Run(Config{Scenario: sc, Factory: foreignClock})
		must.NotNil(t, w)
		must.Error(t, err)
		v := w.Violations()
		if vclock.Forked() {
			// On upstream's clock the time package is a few ms off
			// (instep.go), which adds a SYNC-1 verdict for "Received".
			must.SliceLen(t, 1, v, must.Sprint(v))
		}
		t.Logf("DET-1 diagnostic:\n%s", v[0])
		for _, want := range []string{`DET-1 (runner "foreignclock", seed 7): `, `/t1 @2024-06-14T08:55:`,
			`: TaskEvent "Task Setup".Time = 2024-06-14T07:55:`, `, want the world's virtual now 2024-06-14T08:55:`,
			`(the runner read a clock other than the injected one, or one not in step with it)`, `; the first of 4 such stamps in the run`} {
			must.StrContains(t, v[0], want)
		}
		must.StrContains(t, err.Error(), v[0])
		var traced []string
		for _, r := range w.Trace().Records() {
			if r.Kind == trace.KindViolation {
				traced = append(traced, r.Msg)
			}
		}
		must.Eq(t, v, traced)
		must.StrContains(t, Failure{Scenario: sc, Violation: err.Error()}.String(), "--- violation\nsim: run simple: DET-1")
	})
}

// TestSYNC1LatePush: a stamp of an earlier instant is a late push,
// SYNC-1's verdict, not a clock's.
func TestSYNC1LatePush(t *testing.T) {
	Test(t, WatchConfig{}, func(t *testing.T) {
		w, err := Run(Config{Scenario: twoAllocs(), Factory: latePush})
		must.NotNil(t, w)
		must.Error(t, err)
		v := w.Violations()
		must.SliceLen(t, 1, v, must.Sprint(v))
		must.StrContains(t, v[0], `SYNC-1 (runner "latepush", seed 7): `)
		must.StrContains(t, v[0], `: TaskEvent "Received".Time = 2024-06-14T08:55:`)
		must.StrContains(t, v[0], ", pushed 1s after the instant it was made; want it pushed at that instant")
	})
}

// TestDET1Restored: after a restart, a stamp from before the incarnation
// started may be restored state (made by an earlier incarnation, never
// pushed): it passes; one before the run started does not, and the
// message gives the window.
func TestDET1Restored(t *testing.T) {
	Test(t, WatchConfig{}, func(t *testing.T) {
		var mu sync.Mutex
		made := map[string]time.Time{} // alloc ID -> incarnation 1's instant
		f := wrongFactory("restored", func(cfg *interfaces.Config) *structs.Allocation {
			now := cfg.Clock.Now()
			mu.Lock()
			t1, restored := made[cfg.Alloc.ID]
			if !restored {
				made[cfg.Alloc.ID] = now
			}
			mu.Unlock()
			if !restored {
				return runningAlloc(cfg, now, structs.NewTaskEvent(structs.TaskReceived, now))
			}
			return runningAlloc(cfg, t1, structs.NewTaskEvent(structs.TaskReceived, t1),
				structs.NewTaskEvent(structs.TaskSetup, t1), // made and persisted before the crash, not pushed
				structs.NewTaskEvent(structs.TaskStarted, start.Add(-time.Hour)))
		})
		sc := simpleScenario(faults.Plan{{Class: faults.ClientCrash, At: 30 * time.Second, For: 5 * time.Second}},
			simpleJob("j1", 1, nil))
		w, err := Run(Config{Scenario: sc, Factory: f})
		must.NotNil(t, w)
		must.Error(t, err)
		must.EqOp(t, 2, clientStarts(w))
		v := w.Violations()
		must.SliceLen(t, 1, v, must.Sprint(v))
		must.StrContains(t, v[0], `: TaskEvent "Started".Time = 2024-06-14T07:55:00Z, want the world's virtual now 2024-06-14T08:55:35`)
		must.StrContains(t, v[0], " or, restored from an earlier incarnation, an instant from 2024-06-14T08:55:00Z to 2024-06-14T08:55:35Z (the runner read a clock other than the injected one, or one not in step with it)")
		must.StrContains(t, v[0], "; the only such stamp in the run")
		t.Logf("DET-1 diagnostic after a restart:\n%s", v[0])
	})
}

// TestDET4MapOrder: CheckReplay reports a map-order leak with the first
// differing record; up to 20 runs (each pair differs with probability
// 63/64 here) make the verdict certain in practice.
func TestDET4MapOrder(t *testing.T) {
	Test(t, WatchConfig{}, func(t *testing.T) {
		sc := twoAllocs()
		replay := "go test ./sim -run 'TestDET4MapOrder$'"
		err := CheckReplay(Config{Scenario: sc, Factory: mapOrder}, ReplayOptions{Runs: 20, Replay: replay})
		var d *ReplayError
		must.True(t, errors.As(err, &d), must.Sprint(err))
		must.EqOp(t, err.Error(), d.Error(), must.Sprint("no run failed: the difference is the only error"))
		t.Logf("DET-4 diagnostic:\n%s", err)
		for _, want := range []string{`DET-4 (runner "maporder", seed 7): `, " @2024-06-14T08:55:",
			fmt.Sprintf(": trace line %d of run %d differs from run 1's", d.Line, d.Run),
			"\nTo reproduce: " + replay} {
			must.StrContains(t, err.Error(), want)
		}
		must.SliceLen(t, replayContext, d.Context)
		must.NotEqOp(t, d.First, d.Other)
		for _, l := range []string{d.First, d.Other} {
			must.StrContains(t, l, `"kind":"alloc"`)
			must.StrContains(t, l, `"description":"tasks `)
		}
		must.StrContains(t, d.Failure().String(), "--- violation\nDET-4")
	})
}

// TestDiffTraces: the first differing line, its context, a trace that
// ends early.
func TestDiffTraces(t *testing.T) {
	must.Nil(t, diffTraces([]byte("a\nb\n"), []byte("a\nb\n")))
	d := diffTraces([]byte("a\nb\nc\nd\n"), []byte("a\nb\nc\nx\n"))
	must.Eq(t, &ReplayError{Line: 4, Context: []string{"b", "c"}, First: "d", Other: "x"}, d)
	d = diffTraces([]byte("a\nb\n"), []byte("a\n"))
	must.Eq(t, &ReplayError{Line: 2, Context: []string{"a"}, First: "b"}, d)
	d.Runner, d.Run = "r", 2
	must.StrContains(t, d.Error(), "  run 1:  b\n  run 2:  <end of trace>")
}

// TestChecksNoFalsePositives: the reference and minimal runners pass the
// stamp check and the replay check on generated scenarios with crashes,
// restarts and other faults.
func TestChecksNoFalsePositives(t *testing.T) {
	for _, f := range []interfaces.Factory{minimalFactory(), referenceFactory()} {
		for _, seed := range faultySeeds(3) {
			t.Run(fmt.Sprintf("%s/%d", f.Name, seed), func(t *testing.T) {
				restarts := 0
				Test(t, WatchConfig{}, func(t *testing.T) {
					sc := scenario.Generate(seed, scenario.Options{})
					err := CheckReplay(Config{Scenario: sc, Factory: f}, ReplayOptions{Replay: replayCommand(seed),
						OnRun: func(_ int, w *World) { restarts = max(restarts, clientStarts(w)-1) }})
					must.NoError(t, err)
				})
				must.Positive(t, restarts, must.Sprint("the scenario restarts the client"))
			})
		}
	}
}

// faultySeeds are the first n seeds of a fixed source whose scenario
// crashes the client and has at least two other fault classes.
func faultySeeds(n int) []uint64 {
	r := seeds.Stream(2024, "det-checks")
	var out []uint64
	for len(out) < n {
		seed := r.Uint64() >> 1
		p := scenario.Generate(seed, scenario.Options{}).Faults
		classes := map[faults.Class]bool{}
		for _, f := range p {
			classes[f.Class] = true
		}
		if p.Has(faults.ClientCrash) && len(classes) >= 3 {
			out = append(out, seed)
		}
	}
	return out
}

// clientStarts counts the client incarnations a run started.
func clientStarts(w *World) int {
	n := 0
	for _, r := range w.Trace().Records() {
		if r.Kind == trace.KindWorld && r.Msg == "client_start" {
			n++
		}
	}
	return n
}
