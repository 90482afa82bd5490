package reports

import (
	"regexp"
	"strings"
)

// Cause is one violation that failed several properties of a runner: a
// world verdict of every run (a foreign clock, goroutines left, a
// nondeterministic trace) fails every property whose checks reach it,
// with another seed, instant and count each time.
type Cause struct {
	// Violation is the first failed property's violation, as printed.
	Violation string
	// Properties are the IDs of the properties it failed, in run order.
	Properties []string
}

// Causes groups r's failed properties by cause: properties whose
// violations differ only in seeds, instants, IDs and counts. Only
// causes of two properties or more are returned, in the order of their
// first property.
func (r Runner) Causes() []Cause {
	var out []Cause
	index := map[string]int{}
	for _, p := range r.Properties {
		if p.Status != Fail || p.Violation == "" {
			continue
		}
		k := causeKey(p.Violation)
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, Cause{Violation: p.Violation})
		}
		out[i].Properties = append(out[i].Properties, p.ID)
	}
	var shared []Cause
	for _, c := range out {
		if len(c.Properties) > 1 {
			shared = append(shared, c)
		}
	}
	return shared
}

// CauseOf is the shared cause property id of r failed with, if any.
func (r Runner) CauseOf(id string) (Cause, int, bool) {
	for i, c := range r.Causes() {
		for _, p := range c.Properties {
			if p == id {
				return c, i + 1, true
			}
		}
	}
	return Cause{}, 0, false
}

var (
	causeUUID    = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	causeInstant = regexp.MustCompile(`\d{4}-\d\d-\d\dT[0-9:.]+Z`)
	causeNumber  = regexp.MustCompile(`\d+`)
	causeScene   = regexp.MustCompile(`scenario "[^"]*"|world w\d+`)
	causeName    = regexp.MustCompile(`[a-z0-9-]+\.[a-z0-9-]+\[\d+\]`) // <job>.<group>[<i>]
)

// causeKey is a violation without what changes from one run to another.
// Only world verdicts (they name the runner and seed) are grouped; a
// checker's violation keeps its property's ID, so it stays alone.
func causeKey(v string) string {
	if !strings.Contains(v, "(runner \"") {
		return "\x00" + v
	}
	// "@<instant>: " first, then the verdict.
	if _, rest, ok := strings.Cut(v, ": "); ok && strings.HasPrefix(v, "@") {
		v = rest
	}
	v = causeScene.ReplaceAllString(v, "")
	v = causeUUID.ReplaceAllString(v, "<id>")
	v = causeInstant.ReplaceAllString(v, "<t>")
	v = causeName.ReplaceAllString(v, "<alloc>")
	return causeNumber.ReplaceAllString(v, "N")
}
