package sweepcmd

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/reports"
)

// work is one chunk to check: seeds Seeds of Properties (nil: the
// sweep's selection, before any chunk has said which properties it
// holds).
type work struct {
	Seeds      Range
	Properties []string
}

// what says which properties w checks.
func (w work) what() string {
	if w.Properties == nil {
		return "the selected properties"
	}
	return fmt.Sprintf("%d propert%s", len(w.Properties), plural(len(w.Properties), "y", "ies"))
}

// next is the first chunk, at or after seed from, that holds work: the
// chunk (of size seeds, laid out from the shard's first seed, chunkAt)
// holding the lowest seed ≥ from that a searching property has not
// checked, with those properties, and the seeds narrowed to the span
// they miss there. Failed and not-applicable properties are not
// searched. Before any property is known every chunk is work for the
// selection. False: nothing is left at or after from.
func (f *summaryFile) next(from, size uint64) (work, bool) {
	return f.nextOf(from, size, nil, 0)
}

// nextOf is next among the searching properties that free accepts (nil:
// all), at most most of them (0: no bound), taken in the suite's order:
// a batch (sweeper.take). Before any property is known it is next.
func (f *summaryFile) nextOf(from, size uint64, free func(id string) bool, most int) (work, bool) {
	scope := f.scope()
	from = max(from, scope.From)
	if from > scope.To || from == 0 {
		return work{}, false
	}
	if len(f.Properties) == 0 {
		return work{Seeds: chunkAt(scope, size, from)}, true
	}
	var candidates []propertyState
	for _, p := range f.searching() {
		if free == nil || free(p.ID) {
			candidates = append(candidates, p)
		}
	}
	rest := Range{From: from, To: scope.To}
	first, found := uint64(math.MaxUint64), false
	for _, p := range candidates {
		if s, ok := firstMissing(rest, p.Checked); ok {
			first, found = min(first, s), true
		}
	}
	if !found {
		return work{}, false
	}
	chunk := chunkAt(scope, size, first)
	chunk.From = max(chunk.From, from)
	w := work{Seeds: Range{From: math.MaxUint64, To: 0}, Properties: []string{}}
	for _, p := range candidates {
		gaps := without(chunk, p.Checked)
		if len(gaps) == 0 {
			continue
		}
		w.Properties = append(w.Properties, p.ID)
		w.Seeds.From = min(w.Seeds.From, gaps[0].From)
		w.Seeds.To = max(w.Seeds.To, gaps[len(gaps)-1].To)
		if most > 0 && len(w.Properties) == most {
			break
		}
	}
	return w, true
}

// searching are the properties still searched: known, applicable, not
// failed.
func (f *summaryFile) searching() []propertyState {
	var out []propertyState
	for _, p := range f.Properties {
		if p.Status != statusNA && !f.failed(p.ID) {
			out = append(out, p)
		}
	}
	return out
}

// record adds a chunk's results to f: each property's checked seeds
// (all of w.Seeds when it passed, w.Seeds.From up to its failing seed
// when it failed), its failure with replay(id, seed) as the replay
// command, n/a properties. It returns the failures that are new and an
// error for what the chunk left undone: a property the budget cut short
// (only the seeds it ran count), a suite error, a property missing from
// the results. Chunks is counted when nothing was left undone.
func (f *summaryFile) record(w work, results []reports.Property, replay func(id string, seed uint64) string) ([]failure, error) {
	var problems []error
	var fresh []failure
	seen := map[string]bool{}
	for _, r := range results {
		if w.Properties != nil && !slices.Contains(w.Properties, r.ID) {
			continue
		}
		seen[r.ID] = true
		p := f.property(r.ID)
		p.addSituations(r.Situations)
		switch r.Status {
		case reports.NotApplicable:
			p.Status = statusNA
		case reports.Pass:
			n := uint64(max(r.Checks, 0))
			p.Checks += n
			if !r.Truncated && n == w.Seeds.Len() {
				p.Checked = union(p.Checked, Set{w.Seeds})
				continue
			}
			// Seeds run in order: the first n passed.
			if n > 0 {
				p.Checked = union(p.Checked, Set{{From: w.Seeds.From, To: w.Seeds.From + min(n, w.Seeds.Len()) - 1}})
			}
			if r.Truncated {
				problems = append(problems, fmt.Errorf("%s: the real-time budget cut seeds %s short after %d checks (use a smaller --chunk)", r.ID, w.Seeds, n))
			} else {
				problems = append(problems, fmt.Errorf("%s: ran %d checks for the %d seeds %s (does the allocsim source support -allocsim.seeds?)", r.ID, n, w.Seeds.Len(), w.Seeds))
			}
		case reports.Fail:
			if !w.Seeds.Contains(r.Seed) {
				problems = append(problems, fmt.Errorf("%s: failing seed %d is outside the chunk's seeds %s", r.ID, r.Seed, w.Seeds))
				continue
			}
			p.Checks += uint64(max(r.Checks, 0))
			p.Checked = union(p.Checked, Set{{From: w.Seeds.From, To: r.Seed}})
			p.Stopped = Set{f.scope()}
			x := failure{Property: r.ID, Seed: r.Seed, Violation: r.Violation, Replay: replay(r.ID, r.Seed)}
			if f.Shard != nil {
				x.Shard = f.Shard.String()
			}
			if f.addFailure(x) {
				fresh = append(fresh, x)
			}
		case reports.Error:
			problems = append(problems, fmt.Errorf("%s: suite error: %s", r.ID, firstLines(r.Message, 12)))
		default:
			problems = append(problems, fmt.Errorf("%s: unexpected status %q", r.ID, r.Status))
		}
	}
	for _, id := range w.Properties {
		if !seen[id] {
			problems = append(problems, fmt.Errorf("%s: not in the suite's results", id))
		}
	}
	if w.Properties == nil && len(seen) == 0 {
		problems = append(problems, errors.New("the suite reported no property"))
	}
	if len(problems) == 0 {
		f.Totals.Chunks++
	}
	return fresh, errors.Join(problems...)
}

// firstLines is s cut to its first n lines.
func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
