package faults

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Plan is a run's fault plan: at most one entry per per-call class, any
// number of timed entries.
type Plan []Fault

// String prints the plan, one fault per line; an empty plan prints
// "(no faults)".
func (p Plan) String() string {
	if len(p) == 0 {
		return "(no faults)"
	}
	lines := make([]string, len(p))
	for i, f := range p {
		lines[i] = f.String()
	}
	return strings.Join(lines, "\n")
}

// ParsePlan parses String's format; blank lines, "#" comments and
// "(no faults)" are skipped.
func ParsePlan(s string) (Plan, error) {
	var p Plan
	for i, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") || l == "(no faults)" {
			continue
		}
		f, err := ParseFault(l)
		if err != nil {
			return nil, fmt.Errorf("fault plan line %d: %w", i+1, err)
		}
		p = append(p, f)
	}
	return p, nil
}

// Has reports whether the plan holds a fault of class c.
func (p Plan) Has(c Class) bool {
	return slices.ContainsFunc(p, func(f Fault) bool { return f.Class == c })
}

// Of returns the plan's faults of class c, in plan order.
func (p Plan) Of(c Class) []Fault {
	var out []Fault
	for _, f := range p {
		if f.Class == c {
			out = append(out, f)
		}
	}
	return out
}

// Timed returns the timed faults sorted by At, then class order.
func (p Plan) Timed() []Fault {
	var out []Fault
	for _, f := range p {
		if f.Class.Timed() {
			out = append(out, f)
		}
	}
	order := Classes()
	slices.SortStableFunc(out, func(a, b Fault) int {
		return cmp.Or(cmp.Compare(a.At, b.At),
			cmp.Compare(slices.Index(order, a.Class), slices.Index(order, b.Class)))
	})
	return out
}

// HealedBy is the offset from the run's start after which no fault acts
// any more, and false if some per-call fault never heals.
func (p Plan) HealedBy() (time.Duration, bool) {
	var end time.Duration
	for _, f := range p {
		if !f.Class.Timed() && f.Until == 0 {
			return 0, false
		}
		end = max(end, f.End())
	}
	return end, true
}

// Validate reports entries of unknown classes, a per-call class listed
// twice, and classes that do not apply to shape s.
func (p Plan) Validate(s Shape) error {
	seen := map[Class]bool{}
	var errs []string
	for _, f := range p {
		switch {
		case !f.Class.Known():
			errs = append(errs, fmt.Sprintf("unknown fault class %q", f.Class))
		case !f.Class.Timed() && seen[f.Class]:
			errs = append(errs, fmt.Sprintf("fault %s listed twice", f.Class))
		case !f.Class.Applies(s):
			errs = append(errs, fmt.Sprintf("fault %s does not apply to this scenario", f.Class))
		}
		seen[f.Class] = true
	}
	if len(errs) > 0 {
		return fmt.Errorf("fault plan: %s", strings.Join(errs, "; "))
	}
	return nil
}
