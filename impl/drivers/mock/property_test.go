package mock

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
	"go.uber.org/goleak"
	"pgregory.net/rapid"
)

// stopScenario is one task configuration and one stop of it.
type stopScenario struct {
	runFor    time.Duration // 0: until stopped
	killAfter time.Duration
	trapped   []string
	ignored   []string
	hang      bool
	stopAt    time.Duration // after start
	signal    string
	timeout   time.Duration
}

// expectStop is the naive oracle: the exit instant (after start) and
// result of a stopScenario, straight from the package doc's rules.
func expectStop(s stopScenario) (time.Duration, drivers.ExitResult) {
	natural := drivers.ExitResult{ExitCode: 3}
	if s.runFor > 0 && s.runFor <= s.stopAt {
		return s.runFor, natural
	}
	canon, num, _ := drivers.ParseSignal(s.signal)
	has := func(list []string) bool {
		for _, e := range list {
			if e == canon {
				return true
			}
		}
		return false
	}
	var at time.Duration
	var res drivers.ExitResult
	switch {
	case num == 9:
		at, res = s.stopAt, drivers.ExitResult{Signal: 9}
	case s.hang || has(s.ignored) || (!has(s.trapped) && !drivers.TerminatesByDefault(canon)):
		at, res = s.stopAt+s.timeout, drivers.ExitResult{Signal: 9}
	case s.killAfter > s.timeout:
		at, res = s.stopAt+s.timeout, drivers.ExitResult{Signal: 9}
	case has(s.trapped):
		at, res = s.stopAt+s.killAfter, drivers.ExitResult{}
	default:
		at, res = s.stopAt+s.killAfter, drivers.ExitResult{Signal: num}
	}
	if s.runFor > 0 && s.runFor <= at {
		return s.runFor, natural
	}
	return at, res
}

func drawStopScenario(t *rapid.T) stopScenario {
	secs := func(label string, max int) time.Duration {
		return time.Duration(rapid.IntRange(0, max).Draw(t, label)) * time.Second
	}
	sigs := []string{"SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGWINCH", "SIGKILL"}
	trappable := []string{"SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGWINCH"}
	var trapped, ignored []string
	for _, s := range trappable {
		switch rapid.IntRange(0, 2).Draw(t, "disposition "+s) {
		case 1:
			trapped = append(trapped, s)
		case 2:
			ignored = append(ignored, s)
		}
	}
	return stopScenario{
		runFor:    secs("run_for", 20),
		killAfter: secs("kill_after", 10),
		trapped:   trapped,
		ignored:   ignored,
		hang:      rapid.IntRange(0, 4).Draw(t, "hang") == 0,
		stopAt:    secs("stop_at", 15),
		signal:    rapid.SampledFrom(sigs).Draw(t, "signal"),
		timeout:   secs("timeout", 10),
	}
}

// runStop plays a stopScenario on the driver and returns the exit instant
// after start, the result, and the instant StopTask returned.
func runStop(t *testing.T, s stopScenario) (time.Duration, drivers.ExitResult, time.Duration) {
	h := newHarness(Config{Faults: hangFaults{hang: s.hang}})
	defer h.d.Close()
	config := map[string]any{
		"run_for": s.runFor.String(), "exit_code": 3, "kill_after": int64(s.killAfter),
		"exit_on_signals": toAny(s.trapped), "ignore_signals": toAny(s.ignored),
	}
	h.start(t, "a/web", config)
	ch := h.wait(t, "a/web")
	h.advance(s.stopAt)
	stopped := stopAsync(h.d, "a/web", s.timeout, s.signal)
	returnedAt := time.Duration(-1)
	for range 100 {
		synctest.Wait()
		select {
		case err := <-stopped:
			must.NoError(t, err)
			returnedAt = h.now()
		default:
		}
		if returnedAt >= 0 {
			break
		}
		h.advance(time.Second)
	}
	r := result(t, ch)
	exits := h.exits()
	must.Eq(t, 1, len(exits))
	return exits[0].At, *r, returnedAt
}

func toAny(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

// TestStopMatchesOracle: for any configuration and stop, the driver exits
// at the instant and with the result the package doc's rules give, and
// StopTask returns at that instant (or at once if the task had exited).
func TestStopMatchesOracle(t *testing.T) {
	defer goleak.VerifyNone(t)
	rapid.Check(t, func(rt *rapid.T) {
		s := drawStopScenario(rt)
		wantAt, want := expectStop(s)
		var at, returned time.Duration
		var got drivers.ExitResult
		// rapid cannot run inside a bubble; each case gets its own.
		synctest.Test(t, func(t *testing.T) { at, got, returned = runStop(t, s) })
		if at != wantAt || !cmp.Equal(want, got) {
			rt.Fatalf("%+v: exit at %s with %+v, want at %s with %+v", s, at, got, wantAt, want)
		}
		wantReturn := max(wantAt, s.stopAt)
		if returned != wantReturn {
			rt.Fatalf("%+v: StopTask returned at %s, want %s", s, returned, wantReturn)
		}
	})
}

// TestTraceReplays: the same calls give the same trace, including two
// exits due at one instant (DET-4).
func TestTraceReplays(t *testing.T) {
	play := func() []traced {
		var out []traced
		synctest.Test(t, func(t *testing.T) {
			h := newHarness(Config{})
			for i, id := range []string{"a/c", "a/a", "a/b"} {
				h.start(t, id, map[string]any{"run_for": "5s", "exit_code": i,
					"exit_on_signals": "SIGTERM", "kill_after": "2s"})
				h.wait(t, id)
			}
			h.advance(3 * time.Second)
			must.NoError(t, h.d.SignalTask("a/b", "SIGTERM"))
			h.advance(3 * time.Second)
			must.NoError(t, h.d.DestroyTask("a/a", false))
			out = h.trace()
		})
		return out
	}
	first := play()
	for i := range 5 {
		if diff := cmp.Diff(first, play()); diff != "" {
			t.Fatalf("replay %d differs (-first +replay):\n%s", i, diff)
		}
	}
	must.Eq(t, fmt.Sprint(traced{At: 5 * time.Second, Op: OpExit, TaskID: "a/b", Detail: "exit_code=2 signal=0"}),
		fmt.Sprint(first[9]))
}
