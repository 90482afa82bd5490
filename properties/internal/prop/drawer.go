package prop

import (
	"time"

	"github.com/allocsim/allocsim/sim/seeds"
)

// Drawer draws a scenario's choices and records them, so that a failing
// scenario can be drawn again with smaller choices (shrink.go). It is a
// seeds.Drawer: the scenario generators of sim/scenario draw from it.
type Drawer struct {
	src seeds.Drawer
	// tape, when replaying, holds the choices to return (as offsets
	// from each draw's lower bound); past its end every draw is its
	// lower bound.
	tape   []int
	replay bool
	drawn  []int
}

var _ seeds.Drawer = (*Drawer)(nil)

// seedDrawer draws from seed's "scenario" stream.
func seedDrawer(seed uint64) *Drawer {
	return &Drawer{src: seeds.RandDrawer{R: seeds.Stream(seed, "scenario")}}
}

// tapeDrawer replays choices.
func tapeDrawer(tape []int) *Drawer { return &Drawer{tape: tape, replay: true} }

// IntRange returns an integer in [lo, hi]; hi < lo returns lo.
func (d *Drawer) IntRange(label string, lo, hi int) int {
	if hi <= lo {
		d.drawn = append(d.drawn, 0)
		return lo
	}
	var off int
	if d.replay {
		if i := len(d.drawn); i < len(d.tape) {
			off = min(max(d.tape[i], 0), hi-lo)
		}
	} else {
		off = d.src.IntRange(label, lo, hi) - lo
	}
	d.drawn = append(d.drawn, off)
	return lo + off
}

// Bool returns a boolean (false is the smaller choice).
func (d *Drawer) Bool(label string) bool { return d.IntRange(label, 0, 1) == 1 }

// Pick returns one of choices (which must not be empty); earlier ones
// are the smaller choices.
func Pick[T any](d *Drawer, label string, choices []T) T {
	return choices[d.IntRange(label, 0, len(choices)-1)]
}

// Duration returns a duration in [lo, hi] in whole steps of unit.
func (d *Drawer) Duration(label string, lo, hi, unit time.Duration) time.Duration {
	if unit <= 0 {
		unit = time.Second
	}
	return time.Duration(d.IntRange(label, int(lo/unit), int(hi/unit))) * unit
}

// Choices is the recorded choice sequence so far.
func (d *Drawer) Choices() []int { return append([]int(nil), d.drawn...) }
