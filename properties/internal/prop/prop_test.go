package prop

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/sim/scenario"
)

func TestShrinkFindsTheSmallestFailingTape(t *testing.T) {
	tests := []struct {
		name  string
		tape  []int
		fails func([]int) bool
		want  []int
	}{
		{"one big choice", []int{9, 7, 5}, func(tp []int) bool { return len(tp) > 0 && tp[0] >= 3 }, []int{3}},
		{"needs two", []int{4, 8, 1, 6}, func(tp []int) bool { return len(tp) >= 2 && tp[1] >= 2 }, []int{0, 2}},
		{"cannot shrink", []int{1}, func(tp []int) bool { return len(tp) == 1 && tp[0] == 1 }, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, runs := shrink(tt.tape, 200, func(c []int) ([]int, bool) { return c, tt.fails(c) })
			if !equal(got, tt.want) {
				t.Errorf("shrink(%v) = %v after %d runs, want %v", tt.tape, got, runs, tt.want)
			}
		})
	}
}

func TestShrinkStopsAtItsBudget(t *testing.T) {
	calls := 0
	_, runs := shrink([]int{5, 5, 5, 5}, 3, func(c []int) ([]int, bool) { calls++; return c, len(c) == 4 })
	if runs != 3 || calls != 3 {
		t.Errorf("runs = %d, calls = %d, want 3 and 3", runs, calls)
	}
}

func TestTapeDrawerReplaysAndClamps(t *testing.T) {
	d := seedDrawer(42)
	a, b, c := d.IntRange("a", 0, 100), d.IntRange("b", 10, 20), d.Bool("c")
	r := tapeDrawer(d.Choices())
	if r.IntRange("a", 0, 100) != a || r.IntRange("b", 10, 20) != b || r.Bool("c") != c {
		t.Fatalf("replay differs from the seed's draws")
	}
	z := tapeDrawer([]int{50})
	if got := z.IntRange("x", 0, 5); got != 5 {
		t.Errorf("clamped draw = %d, want 5", got)
	}
	if got := z.IntRange("past the tape", 3, 9); got != 3 {
		t.Errorf("draw past the tape = %d, want the lower bound 3", got)
	}
}

func TestSeedOfIsStableAndDistinct(t *testing.T) {
	a, b := SeedOf(1, "X-1/a", 0), SeedOf(1, "X-1/a", 1)
	if a == b || a == 0 || SeedOf(1, "X-1/a", 0) != a || SeedOf(1, "X-1/b", 0) == a {
		t.Errorf("seeds: %d %d", a, b)
	}
}

func TestViolationFormat(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2024, 3, 10, 7, 30, 0, 0, time.UTC)
	x := Violation{At: at, Zone: ny, Name: "job1.g1[0]", Task: "t1", What: "task state", Got: "running", Want: "pending (outside its windows)"}
	want := "job1.g1[0]/t1 @2024-03-10T07:30:00Z (03:30:00 EDT America/New_York): task state = running, want pending (outside its windows)"
	if got := x.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	x.Zone = time.UTC
	x.Task = ""
	if got := x.String(); !strings.HasPrefix(got, "job1.g1[0] @2024-03-10T07:30:00Z: ") {
		t.Errorf("UTC form: %s", got)
	}
}

// alwaysFails is a property every run breaks at its first instant with
// the minimal runner, and panics are a checker's: the framework must
// record both and go on.
func drawnOnce(d *Drawer, _ Env) scenario.Scenario {
	return scenario.DrawWith(d, scenario.Options{MinDuration: time.Minute, MaxDuration: time.Minute, NoFaults: true, MaxJobs: 1})
}

func TestAFailureNeverStopsTheSuite(t *testing.T) {
	failing := Property{ID: "X-1/always", Specs: []string{"X-1"}, Draw: drawnOnce,
		New: func(scenario.Scenario) Checker {
			return Checks{OnSettled: func(v *View) { v.Violatef("", "", "anything", "something", "nothing") }}
		}}
	panicking := Property{ID: "X-2/panics", Specs: []string{"X-2"}, Draw: drawnOnce,
		New: func(scenario.Scenario) Checker {
			return Checks{OnFinal: func(v *View) { panic("checker bug") }}
		}}
	holding := Property{ID: "X-3/holds", Specs: []string{"X-3"}, Draw: drawnOnce,
		New: func(scenario.Scenario) Checker { return Checks{} }}
	cfg := Config{Factory: reference.Minimal, Checks: 2, Base: 1, ShrinkRuns: 5, ArtifactDir: t.TempDir(),
		Replay: func(seed uint64) string { return "replay " + itoa(seed) }}
	r1 := Explore(t, failing, cfg)
	if r1.Failure == nil || r1.Checks != 1 {
		t.Fatalf("always-failing property: %+v", r1)
	}
	msg := r1.Failure.String()
	for _, want := range []string{"X-1/always", "--- violation", "anything = something, want nothing", "--- seed", "To reproduce: replay ", "--- artifacts"} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure text lacks %q:\n%s", want, msg)
		}
	}
	r2 := Explore(t, panicking, cfg)
	if r2.Failure == nil || !strings.Contains(r2.Failure.String(), "checker bug") {
		t.Errorf("panicking checker: %+v", r2)
	}
	r3 := Explore(t, holding, cfg)
	if !r3.Passed() || r3.Checks != 2 {
		t.Errorf("holding property after two failing ones: %+v", r3)
	}
}

func TestReplayBySeedReproducesTheFailure(t *testing.T) {
	p := Property{ID: "X-4/late", Specs: []string{"X-4"}, Draw: drawnOnce,
		New: func(sc scenario.Scenario) Checker {
			return Checks{OnSettled: func(v *View) {
				if v.Now().Sub(sc.Start) >= 30*time.Second {
					v.Violatef("", "", "virtual time", v.Now().Sub(sc.Start), "under 30s")
				}
			}}
		}}
	cfg := Config{Factory: reference.Minimal, Checks: 1, Base: 7}
	first := Explore(t, p, cfg)
	if first.Failure == nil {
		t.Fatal("no failure")
	}
	cfg.Seed = first.Failure.Seed
	again := Explore(t, p, cfg)
	if again.Failure == nil || again.Failure.Violation().String() != first.Failure.Violation().String() {
		t.Fatalf("replay of seed %d: %v, want %v", cfg.Seed, again.Failure, first.Failure.Violation())
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func itoa(u uint64) string { return strconv.FormatUint(u, 10) }
