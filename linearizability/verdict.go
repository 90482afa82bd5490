package linearizability

import "fmt"

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
