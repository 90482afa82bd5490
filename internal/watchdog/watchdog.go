package watchdog

import (
	"flag"
	"fmt"
	"os"
	"time"
)

// DefaultStall is the stall period when neither the flag, the
// environment nor the caller sets one.
const DefaultStall = 10 * time.Second

// EnvStall is the environment variable that sets the stall period, for
// `go test ./...`, where a package that does not define -sim.stall would
// reject the flag.
const EnvStall = "ALLOCSIM_STALL"

var stallFlag = flag.String("sim.stall", "",
	"stall watchdog of simulated runs: fail with a diagnosis after this much real time without progress (Go duration; 0 turns it off; default "+
		DefaultStall.String()+", or $"+EnvStall+")")

// Stall is the stall period: the -sim.stall flag if given, else
// $ALLOCSIM_STALL if set, else d if positive, else DefaultStall; a
// negative d, or 0 from the flag or the environment, turns the watchdog
// off (Stall returns 0). The flag and the environment win over the
// caller's value, so that a person at a debugger can turn the watchdog
// off. An unparsable value is an error.
func Stall(d time.Duration) (time.Duration, error) {
	if v := *stallFlag; v != "" {
		return parse("-sim.stall", v)
	}
	if v, ok := os.LookupEnv(EnvStall); ok && v != "" {
		return parse(EnvStall, v)
	}
	switch {
	case d > 0:
		return d, nil
	case d < 0:
		return 0, nil
	}
	return DefaultStall, nil
}

func parse(name, v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("watchdog: %s=%q: want a non-negative Go duration such as 10s", name, v)
	}
	return d, nil
}

// Probe reads a watched run from outside its bubble: a counter that moves
// whenever the run makes progress, and whether the run is active (a run
// that is not active cannot stall). It must be safe to call from any
// goroutine and must not block on the bubble.
type Probe func() (progress uint64, active bool)

// Start watches probe on the real clock and calls onStall once, on the
// watchdog's goroutine, when the run was active and its progress counter
// did not move for stall of real time. Call it outside any bubble. A
// non-positive stall watches nothing. The returned function stops the
// watchdog and waits for its goroutine to end; it must not be called from
// onStall.
func Start(stall time.Duration, probe Probe, onStall func()) (stop func()) {
	if stall <= 0 {
		return func() {}
	}
	done, exited := make(chan struct{}), make(chan struct{})
	go watch(stall, probe, onStall, done, exited)
	return func() {
		close(done)
		<-exited
	}
}

// pollsPerStall is how often per stall period the watchdog polls.
const pollsPerStall = 10

// Entry is the function a watchdog's goroutine runs, as the runtime
// names it in a stack: a leak check can tell that goroutine apart from
// the run's without reading its labels.
const Entry = "github.com/allocsim/allocsim/internal/watchdog.watch"

// watch is the watchdog's goroutine (Entry); it closes exited when it
// ends.
func watch(stall time.Duration, probe Probe, onStall func(), done <-chan struct{}, exited chan<- struct{}) {
	defer close(exited)
	tick := time.NewTicker(max(stall/pollsPerStall, time.Millisecond))
	defer tick.Stop()
	var last uint64
	since := time.Now()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		p, active := probe()
		now := time.Now()
		if !active || p != last {
			last, since = p, now
			continue
		}
		if now.Sub(since) >= stall {
			onStall()
			return
		}
	}
}

// Within runs f on a goroutine of its own and reports whether it returned
// within d of real time. A diagnosis uses it for reads that take a lock a
// wedged goroutine might hold: it then goes on without them (f's
// goroutine is left behind; the process is about to end).
func Within(d time.Duration, f func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}
