package linearizability

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
)

// Options tunes a check. The zero value checks without a time limit and
// draws no run-wide annotations.
type Options struct {
	// Timeout bounds the search of each partition; 0 means no limit. A
	// partition that runs out of time is Unknown, never Ok.
	Timeout time.Duration
	// Annotations are drawn with every partition: the faults and crashes
	// of the whole run.
	Annotations []Annotation
}

// A Result is the outcome of checking a set of partitions.
type Result struct {
	// Model names the model checked: "hook resources" or "server view".
	Model string
	// Verdict is Illegal if some partition is, else Unknown if some
	// partition timed out, else Ok. Only Ok is a pass.
	Verdict Verdict
	// Key is the partition the verdict is about: the Illegal one, or the
	// first (by key) that timed out; "" when Ok.
	Key string
	// TimedOut lists, sorted, the keys of the partitions that timed out
	// before checking stopped.
	TimedOut []string
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
		return fmt.Sprintf("%s: unknown (not proven): %d of %d partitions timed out: %s",
			r.Model, len(r.TimedOut), r.Partitions, strings.Join(r.TimedOut, ", "))
	default:
		return fmt.Sprintf("%s: %v", r.Model, r.Verdict)
	}
}

// A checker is one model with the op check its Step relies on.
type checker struct {
	name    string
	model   porcupine.Model
	validOp func(key string, o Op) error
}

// check validates the whole history first (a malformed history is a
// harness bug, not a verdict), then checks each partition in key order.
func (c checker) check(parts []Partition, opts Options) (Result, error) {
	if err := validateHistory(parts, opts.Annotations, c.validOp); err != nil {
		return Result{}, fmt.Errorf("check %s: %w", c.name, err)
	}
	sorted := slices.Clone(parts)
	slices.SortFunc(sorted, func(a, b Partition) int { return cmp.Compare(a.Key, b.Key) })

	res := Result{Model: c.name, Verdict: Ok, Partitions: len(parts)}
	for _, p := range sorted {
		verdict, info := c.checkPartition(p, opts)
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
			res.TimedOut = append(res.TimedOut, p.Key)
		}
	}
	return res, nil
}

// checkPartition runs porcupine on one partition and returns the verdict
// with the linearization info, annotated for the visualization.
func (c checker) checkPartition(p Partition, opts Options) (Verdict, porcupine.LinearizationInfo) {
	annots := slices.Concat(p.Annotations, opts.Annotations)
	h := horizon(p.Ops, annots)
	res, info := porcupine.CheckOperationsVerbose(c.model, toPorcupine(p.Ops, h), opts.Timeout)
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
		return Ok, info
	case porcupine.Illegal:
		return Illegal, info
	default:
		return Unknown, info
	}
}
