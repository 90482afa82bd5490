package linearizability

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/anishathalye/porcupine"
)

// Open is the Return of an operation that failed or whose effect is
// uncertain (a crash mid-call, an RPC that timed out): it may take effect
// at any point after its Call, or never. When a partition is checked, Open
// is replaced by a horizon one past every other timestamp of the
// partition and of its annotations, so the operation overlaps everything
// after its call and porcupine's visualization keeps a readable scale.
const Open int64 = math.MaxInt64

// InFlightBudget is the number of operations in flight at one instant
// (MaxInFlight) up to which a partition is cheap to check. The search is
// exponential in the operations that overlap, so callers that build
// histories from long runs should cut or sample them to stay near this
// budget rather than rely on the check's Budget.
const InFlightBudget = 8

// An Op is one operation of a history: a call by a client, with the
// logical times it was invoked and returned. Timestamps are logical
// (virtual-time nanoseconds or a sequence number) and intervals are
// closed: [10, 20] overlaps [20, 30].
type Op struct {
	// Client is the zero-indexed client (a task runner, a sync loop) that
	// made the call; it picks the row in the visualization.
	Client int
	// Call is when the operation was invoked; Return when it returned, or
	// Open.
	Call, Return int64
	// Input and Output are the model's types (SetMounts, GetMounts and
	// MountsSeen; StoreState, ReadState and StateSeen). Writes have a nil
	// Output.
	Input, Output any
	// Note is free text shown with the operation in the visualization
	// (the trace line it came from, say).
	Note string
}

// IsOpen reports whether o's return is Open.
func (o Op) IsOpen() bool { return o.Return == Open }

// An Annotation marks a span of logical time in the visualization: a fault
// window, a crash, a restore. It does not affect the verdict.
type Annotation struct {
	// Tag, when set, draws the annotation on its own row named Tag below
	// the clients ("faults", "crashes"); when empty it is drawn on the row
	// of Client.
	Tag    string
	Client int
	// Start and End delimit the span; End before Start marks a point in
	// time, End == Open a span that lasts to the end of the history.
	Start, End int64
	// Description is shown in the visualization, Details in its tooltip.
	Description, Details string
}

// A Partition is the history of one independent object: the hook resources
// of one alloc incarnation ("<alloc>/<incarnation>"), the server's record
// of one alloc. Each partition is checked on its own.
type Partition struct {
	Key         string
	Ops         []Op
	Annotations []Annotation // drawn with this partition only
}

// MaxInFlight returns the largest number of ops whose closed intervals
// contain one common instant; an Open op stays in flight from its call on.
// Checking costs grow exponentially with it: see InFlightBudget.
func MaxInFlight(ops []Op) int {
	type event struct {
		t     int64
		delta int // +1 call, -1 return
	}
	events := make([]event, 0, 2*len(ops))
	for _, o := range ops {
		events = append(events, event{o.Call, +1})
		if !o.IsOpen() {
			events = append(events, event{o.Return, -1})
		}
	}
	// Closed intervals: at one instant, calls count before returns.
	slices.SortFunc(events, func(a, b event) int {
		return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(b.delta, a.delta))
	})
	n, best := 0, 0
	for _, e := range events {
		n += e.delta
		best = max(best, n)
	}
	return best
}

// validateHistory checks what every model needs: non-empty unique keys,
// well-formed intervals and annotations, and each op accepted by the
// model's own check.
func validateHistory(parts []Partition, global []Annotation, validOp func(key string, o Op) error) error {
	var errs []error
	for i, a := range global {
		if err := validateAnnotation(a); err != nil {
			errs = append(errs, fmt.Errorf("annotation %d: %w", i, err))
		}
	}
	seen := make(map[string]bool, len(parts))
	for i, p := range parts {
		if p.Key == "" {
			errs = append(errs, fmt.Errorf("partition %d: empty key", i))
			continue
		}
		if seen[p.Key] {
			errs = append(errs, fmt.Errorf("partition %q: duplicate key", p.Key))
			continue
		}
		seen[p.Key] = true
		for j, o := range p.Ops {
			if err := validateOp(o); err != nil {
				errs = append(errs, fmt.Errorf("partition %q op %d: %w", p.Key, j, err))
			} else if err := validOp(p.Key, o); err != nil {
				errs = append(errs, fmt.Errorf("partition %q op %d: %w", p.Key, j, err))
			}
		}
		for j, a := range p.Annotations {
			if err := validateAnnotation(a); err != nil {
				errs = append(errs, fmt.Errorf("partition %q annotation %d: %w", p.Key, j, err))
			}
		}
	}
	return errors.Join(errs...)
}

func validateOp(o Op) error {
	switch {
	case o.Client < 0:
		return fmt.Errorf("negative client %d", o.Client)
	case o.Call == Open:
		return errors.New("call time is Open")
	case !o.IsOpen() && o.Return < o.Call:
		return fmt.Errorf("return %d before call %d", o.Return, o.Call)
	}
	return nil
}

func validateAnnotation(a Annotation) error {
	switch {
	case a.Client < 0:
		return fmt.Errorf("negative client %d", a.Client)
	case a.Start == Open:
		return errors.New("start time is Open")
	}
	return nil
}

// horizon is one past every timestamp of ops and annotations other than
// Open: where Open returns land.
func horizon(ops []Op, annots []Annotation) int64 {
	var last int64 = math.MinInt64
	for _, o := range ops {
		last = max(last, o.Call)
		if !o.IsOpen() {
			last = max(last, o.Return)
		}
	}
	for _, a := range annots {
		last = max(last, a.Start)
		if a.End != Open {
			last = max(last, a.End)
		}
	}
	if last == math.MinInt64 {
		return 0
	}
	return last + 1 // last < Open, so this does not overflow
}

// openNote is how the visualization marks an Open op.
const openNote = "open return: may take effect at any point after its call, or never"

// describeNote renders an op's metadata, as toPorcupine built it: its
// Note and the open marker.
func describeNote(meta any) string {
	s, _ := meta.(string)
	return s
}

// toPorcupine converts one partition, Open returns mapped to h.
func toPorcupine(ops []Op, h int64) []porcupine.Operation {
	out := make([]porcupine.Operation, len(ops))
	for i, o := range ops {
		ret := o.Return
		var notes []string
		if o.Note != "" {
			notes = append(notes, o.Note)
		}
		if o.IsOpen() {
			ret = h
			notes = append(notes, openNote)
		}
		var meta any
		if len(notes) > 0 {
			meta = strings.Join(notes, "; ")
		}
		out[i] = porcupine.Operation{
			ClientId: o.Client,
			Input:    o.Input,
			Call:     o.Call,
			Output:   o.Output,
			Return:   ret,
			Metadata: meta,
		}
	}
	return out
}

// toPorcupineAnnotations converts annotations, End == Open mapped to h.
func toPorcupineAnnotations(annots []Annotation, h int64) []porcupine.Annotation {
	out := make([]porcupine.Annotation, len(annots))
	for i, a := range annots {
		end := a.End
		if end == Open {
			end = h
		}
		out[i] = porcupine.Annotation{
			ClientId:    a.Client,
			Tag:         a.Tag,
			Start:       a.Start,
			End:         end,
			Description: a.Description,
			Details:     a.Details,
		}
	}
	return out
}
