package seeds

import "math/rand/v2"

// Drawer is where generated scenarios and fault plans take their choices
// from: a rapid.T (so failures shrink) or a seeded source (so a seed alone
// names a scenario). Labels name the choice for rapid's failure output.
type Drawer interface {
	// IntRange returns an integer in [lo, hi].
	IntRange(label string, lo, hi int) int
	// Bool returns a boolean.
	Bool(label string) bool
}

// RandDrawer draws from a seeded source.
type RandDrawer struct{ R *rand.Rand }

var _ Drawer = RandDrawer{}

// IntRange returns an integer in [lo, hi]; hi < lo returns lo.
func (d RandDrawer) IntRange(_ string, lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + d.R.IntN(hi-lo+1)
}

// Bool returns a fair coin.
func (d RandDrawer) Bool(string) bool { return d.R.IntN(2) == 1 }

// Pick returns one of choices (which must not be empty), drawn by d.
func Pick[T any](d Drawer, label string, choices []T) T {
	return choices[d.IntRange(label, 0, len(choices)-1)]
}
