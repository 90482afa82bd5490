package faults

import (
	"time"

	"github.com/allocsim/allocsim/sim/seeds"
)

// Draw draws a plan for a scenario of shape s, swarm-style: for each
// class that applies, in Classes order, d first decides whether the class
// is switched on for this run, then its parameters; timed classes get one
// or two instants within the run; an unswarmed class is never drawn (and
// draws nothing). Roughly half the per-call faults heal
// before the end of the run (Until), so convergence can be checked.
func Draw(d seeds.Drawer, s Shape) Plan {
	var p Plan
	secs := max(int(s.Duration/time.Second), 1)
	for _, c := range Classes() {
		if c == DriverRecoverFailure {
			s.Crashes = len(p.Of(ClientCrash))
		}
		if !c.Swarmed() || !c.Applies(s) || !d.Bool("swarm "+string(c)) {
			continue
		}
		if c.Timed() {
			n := d.IntRange(string(c)+" count", 1, 2)
			for i := 0; i < n; i++ {
				p = append(p, drawTimed(d, c, secs))
			}
			continue
		}
		f := Fault{Class: c, Rate: float64(d.IntRange(string(c)+" rate%", 1, 40)) / 100}
		switch c {
		case DriverStartDelay, CSIMountLatency:
			f.Max = time.Duration(d.IntRange(string(c)+" max ms", 1, 5000)) * time.Millisecond
		case DriverExit:
			f.Max = time.Duration(d.IntRange(string(c)+" max s", 1, 600)) * time.Second
		case RPCLatency:
			f.Max = time.Duration(d.IntRange(string(c)+" max ms", 1, 2000)) * time.Millisecond
		case DriverStartFailure:
			f.Recoverable = d.Bool(string(c) + " recoverable")
		}
		if d.Bool(string(c) + " heals") {
			f.Until = time.Duration(d.IntRange(string(c)+" until s", 1, secs)) * time.Second
		}
		p = append(p, f)
	}
	return p
}

func drawTimed(d seeds.Drawer, c Class, secs int) Fault {
	f := Fault{Class: c, At: time.Duration(d.IntRange(string(c)+" at s", 0, secs-1)) * time.Second}
	switch c {
	case RPCPartition:
		f.For = time.Duration(d.IntRange(string(c)+" for s", 1, 120)) * time.Second
	case ClientCrash:
		f.For = time.Duration(d.IntRange(string(c)+" restart after s", 1, 30)) * time.Second
	case ClockJump:
		f.For = time.Duration(d.IntRange(string(c)+" jump min", 1, 120)) * time.Minute
	case NodeDisconnect:
		f.For = time.Duration(d.IntRange(string(c)+" for s", 1, 120)) * time.Second
	}
	return f
}
