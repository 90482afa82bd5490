package prop

import "slices"

// shrinker minimises a failing choice sequence in the manner of rapid and
// Hypothesis: it cuts runs of choices and lowers single choices, keeping
// a change when the scenario drawn from it still fails. Every candidate
// is one run, so it is bounded by a number of runs, never by wall time:
// a seed shrinks to the same scenario on every machine.
type shrinker struct {
	// fails draws the scenario of a tape, runs it and reports whether it
	// still fails the property; the tape it returns is what the draw
	// consumed (shorter when a count was lowered).
	fails func(tape []int) ([]int, bool)
	// budget is how many runs it may still make.
	budget int
	best   []int
	runs   int
}

// shrink returns the smallest failing tape it found from tape (which
// fails) and how many runs it made.
func shrink(tape []int, budget int, fails func([]int) ([]int, bool)) ([]int, int) {
	s := &shrinker{fails: fails, budget: budget, best: slices.Clone(tape)}
	for progress := true; progress && s.budget > 0; {
		progress = s.cutPass()
		progress = s.lowerPass() || progress
	}
	return s.best, s.runs
}

// try runs cand and keeps it if it fails and is smaller.
func (s *shrinker) try(cand []int) bool {
	if s.budget <= 0 || !smaller(cand, s.best) {
		return false
	}
	s.budget--
	s.runs++
	used, ok := s.fails(cand)
	if !ok {
		return false
	}
	if used == nil || len(used) > len(cand) {
		used = cand
	}
	if smaller(used, s.best) {
		s.best = slices.Clone(used)
	}
	return true
}

// cutPass deletes runs of 8, 4, 2 and 1 choices, from the end.
func (s *shrinker) cutPass() bool {
	progress := false
	for _, n := range []int{8, 4, 2, 1} {
		for i := len(s.best) - n; i >= 0 && s.budget > 0; i-- {
			if i+n > len(s.best) {
				continue
			}
			cand := slices.Concat(s.best[:i], s.best[i+n:])
			if s.try(cand) {
				progress = true
			}
		}
	}
	return progress
}

// lowerPass sets each choice to zero, else halves it, else lowers it by
// one, from the front (counts and structure come first).
func (s *shrinker) lowerPass() bool {
	progress := false
	for i := 0; i < len(s.best) && s.budget > 0; i++ {
		v := s.best[i]
		if v == 0 {
			continue
		}
		seen := -1
		for _, nv := range []int{0, v / 2, v - 1} {
			if nv >= v || nv == seen {
				continue
			}
			seen = nv
			cand := slices.Clone(s.best)
			cand[i] = nv
			if s.try(cand) {
				progress = true
				break
			}
		}
	}
	return progress
}

// smaller orders tapes: shorter first, then lexicographically.
func smaller(a, b []int) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return slices.Compare(a, b) < 0
}
