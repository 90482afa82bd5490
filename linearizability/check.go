package linearizability

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/anishathalye/porcupine"
)

// Options tunes a check. The zero value checks within DefaultBudget and
// draws no run-wide annotations.
//
// There is no time limit. porcupine's (a time.After) reads the runtime's
// clock, which inside a testing/synctest bubble, where the suite's checks
// run, is virtual and stands still while the check computes: the limit
// would never fire there, and outside a bubble it would make a verdict
// depend on the machine's speed. Budget is the bound instead.
type Options struct {
	// Budget bounds the work of checking each partition; a partition that
	// runs out of it is Unknown, never Ok.
	Budget Budget
	// Annotations are drawn with every partition: the faults and crashes
	// of the whole run.
	Annotations []Annotation
}

// A Result is the outcome of checking a set of partitions.
type Result struct {
	// Model names the model checked: "hook resources" or "server view".
	Model string
	// Verdict is Illegal if some partition is, else Unknown if some
	// partition ran out of its budget, else Ok. Only Ok is a pass.
	Verdict Verdict
	// Key is the partition the verdict is about: the Illegal one, or the
	// first (by key) that ran out of its budget; "" when Ok.
	Key string
	// Exhausted lists, sorted by key, the partitions that ran out of
	// their budget before checking stopped, with what ran out.
	Exhausted []Exhausted
	// Budget is the budget each partition was checked within, defaults
	// filled in.
	Budget Budget
	// Checked is how many partitions were checked, in key order; checking
	// stops at the first Illegal one. Partitions is how many were given.
	Checked, Partitions int

	viz *visualization // the partition named by Key; nil when Ok
}

// String summarises r in one line, for reports.
func (r Result) String() string {
	switch r.Verdict {
	case Ok:
		return fmt.Sprintf("%s: ok (%d partitions)", r.Model, r.Partitions)
	case Illegal:
		return fmt.Sprintf("%s: illegal: partition %q has no linearization (%d of %d partitions checked)",
			r.Model, r.Key, r.Checked, r.Partitions)
	case Unknown:
		why := make([]string, len(r.Exhausted))
		for i, e := range r.Exhausted {
			why[i] = e.String()
		}
		return fmt.Sprintf("%s: unknown (not proven): %d of %d partitions ran out of the suite's budget: %s",
			r.Model, len(r.Exhausted), r.Partitions, strings.Join(why, "; "))
	default:
		return fmt.Sprintf("%s: %v", r.Model, r.Verdict)
	}
}

// A checker is one model with the op check its Step relies on.
type checker struct {
	name    string
	model   porcupine.Model
	validOp func(key string, o Op) error
	// reduce, if set, drops from a valid partition ops that cannot change
	// its verdict, before the search (which is exponential in the ops in
	// flight).
	reduce func(ops []Op) []Op
}

// check validates the whole history first (a malformed history is a
// harness bug, not a verdict), then checks each partition in key order.
func (c checker) check(parts []Partition, opts Options) (Result, error) {
	if err := validateHistory(parts, opts.Annotations, c.validOp); err != nil {
		return Result{}, fmt.Errorf("check %s: %w", c.name, err)
	}
	sorted := slices.Clone(parts)
	slices.SortFunc(sorted, func(a, b Partition) int { return cmp.Compare(a.Key, b.Key) })

	budget := opts.Budget.withDefaults()
	res := Result{Model: c.name, Verdict: Ok, Partitions: len(parts), Budget: budget}
	for _, p := range sorted {
		if c.reduce != nil {
			p.Ops = c.reduce(p.Ops)
		}
		verdict, info, out := c.checkPartition(p, budget, opts.Annotations)
		res.Checked++
		switch verdict {
		case Illegal:
			res.Verdict, res.Key = Illegal, p.Key
			res.viz = &visualization{model: c.model, info: info}
			return res, nil
		case Unknown:
			if res.Verdict == Ok {
				res.Verdict, res.Key = Unknown, p.Key
				res.viz = &visualization{model: c.model, info: info}
			}
			res.Exhausted = append(res.Exhausted, out)
		}
	}
	return res, nil
}

// checkPartition runs porcupine on one partition within budget and
// returns the verdict with the linearization info, annotated for the
// visualization, and, when the verdict is Unknown, what ran out.
func (c checker) checkPartition(p Partition, budget Budget, global []Annotation) (Verdict, porcupine.LinearizationInfo, Exhausted) {
	annots := slices.Concat(p.Annotations, global)
	h := horizon(p.Ops, annots)
	out := Exhausted{Key: p.Key, Ops: len(p.Ops), InFlight: MaxInFlight(p.Ops), Budget: budget}
	m := &meter{budget: budget, stateBytes: StateBytes(len(p.Ops))}
	tooLong := budget.Ops >= 0 && len(p.Ops) > budget.Ops
	if tooLong {
		// Not searched: with no step allowed, porcupine only lays out the
		// history for the visualization.
		m.budget.Steps = 0
	}
	// No timeout (0): see Options.
	res, info := porcupine.CheckOperationsVerbose(m.wrap(c.model), toPorcupine(p.Ops, h), 0)
	out.Steps, out.States = m.steps, m.states
	switch {
	case tooLong:
		out.Limit, res = LimitOps, porcupine.Unknown
	case m.out != 0 && res != porcupine.Ok:
		out.Limit, res = m.out, porcupine.Unknown // a refused step proves nothing
	}
	// porcupine does not name partitions: a row tagged "partition" does.
	var start int64
	if len(p.Ops) > 0 {
		start = p.Ops[0].Call
		for _, o := range p.Ops {
			start = min(start, o.Call)
		}
	}
	info.AddAnnotations([]porcupine.Annotation{{
		Tag: "partition", Start: start, End: h, Description: p.Key,
		Details: c.name + " partition " + p.Key,
	}})
	info.AddAnnotations(toPorcupineAnnotations(annots, h))
	switch res {
	case porcupine.Ok:
		return Ok, info, Exhausted{}
	case porcupine.Illegal:
		return Illegal, info, Exhausted{}
	default:
		return Unknown, info, out
	}
}

// A Verdict is the outcome of a linearizability check. It has three values
// and only Ok is a pass: Unknown (the checker ran out of its budget) proves
// nothing either way, and callers must report it as "not proven", never
// fold it into Ok.
type Verdict int

const (
	// Unknown: the check ran out of its budget before finding a
	// linearization or exhausting the search. It is the zero value, so a Verdict nobody set
	// never reads as a pass.
	Unknown Verdict = iota
	// Ok: every checked partition has a linearization.
	Ok
	// Illegal: some partition has no linearization; the history violates
	// the model.
	Illegal
)

// String returns "unknown", "ok" or "illegal".
func (v Verdict) String() string {
	switch v {
	case Unknown:
		return "unknown"
	case Ok:
		return "ok"
	case Illegal:
		return "illegal"
	default:
		return fmt.Sprintf("verdict(%d)", int(v))
	}
}
