package prop

import (
	"fmt"
	"slices"
	"strings"
)

// Situation is one case a property's rules distinguish, enumerated from
// SPEC's text (not from known defects): a task role present, a kill rule
// firing, a timeout over its cap. A checker says when a run reaches it
// (View.Reach); a situation no run of a sweep reaches is a check that
// cannot fire there, a failure of the suite (STYLE.md: a harness that
// cannot fail is worthless).
type Situation struct {
	// Name is short and kebab-case, unique within the property.
	Name string
	// Doc says in a few words what it is.
	Doc string
}

// Reach counts situation name as reached in this run. The name must be
// one of the property's Situations: an undeclared one is a bug of the
// suite and panics (the framework reports a checker's panic as a harness
// error).
func (v *View) Reach(name string) {
	if v.reached == nil {
		v.reached = map[string]bool{}
	}
	if !v.declared(name) {
		panic(fmt.Sprintf("prop: situation %q is not in the property's catalogue", name))
	}
	v.reached[name] = true
}

func (v *View) declared(name string) bool {
	for _, s := range v.situations {
		if s.Name == name {
			return true
		}
	}
	return false
}

// Coverage is how many runs of a property reached each situation of its
// catalogue, in catalogue order.
type Coverage []SituationCount

// SituationCount is one situation and the runs that reached it.
type SituationCount struct {
	Name string
	Runs int
}

// newCoverage is the zero coverage of catalogue.
func newCoverage(catalogue []Situation) Coverage {
	c := make(Coverage, len(catalogue))
	for i, s := range catalogue {
		c[i].Name = s.Name
	}
	return c
}

// add counts one run's reached situations.
func (c Coverage) add(reached map[string]bool) {
	for i := range c {
		if reached[c[i].Name] {
			c[i].Runs++
		}
	}
}

// Never are the situations no run reached.
func (c Coverage) Never() []string {
	var out []string
	for _, s := range c {
		if s.Runs == 0 {
			out = append(out, s.Name)
		}
	}
	return out
}

// String is "name=runs,name=runs" in catalogue order (the test attribute
// properties.Run sets); ParseCoverage reads it back.
func (c Coverage) String() string {
	parts := make([]string, len(c))
	for i, s := range c {
		parts[i] = fmt.Sprintf("%s=%d", s.Name, s.Runs)
	}
	return strings.Join(parts, ",")
}

// Merge adds o's counts to c's, situation by situation (sweep shards).
func (c Coverage) Merge(o Coverage) Coverage {
	out := slices.Clone(c)
	for _, s := range o {
		i := slices.IndexFunc(out, func(x SituationCount) bool { return x.Name == s.Name })
		if i < 0 {
			out = append(out, s)
			continue
		}
		out[i].Runs += s.Runs
	}
	return out
}
