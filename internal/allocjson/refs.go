package allocjson

import "github.com/allocsim/allocsim/model/structs"

// An encoding written with refs (AllocRefs, AppendAllocStateRefs) is a
// rope: the bytes the encoder wrote, and the encodings it referenced
// instead of copying (Ref), each to be inserted at its offset (Splice).
// The state DB's memory store keeps an alloc and an acknowledged state
// so: both hold the very task states and events a task runner put frozen
// a moment before, whose bytes the store already keeps as the task's
// state, so a rope holds them once where a flat value held each three
// times (a fifth of a 1,000-client cluster's live memory).

// Ref is an encoding an encoder referenced instead of copying: Enc
// belongs at offset At of the bytes the encoder wrote.
type Ref struct {
	At  int
	Enc []byte
}

// Lender is a Reuse whose encodings stay as they are for as long as
// anything references them: nothing writes into their memory again. An
// encoder with refs references them (Ref) instead of copying. Each
// method returns the encoding it has for that pointer, or nil.
type Lender interface {
	Reuse
	TaskStateEnc(allocID, task string, ts *structs.TaskState) []byte
	EventEnc(allocID, task string, e *structs.TaskEvent) []byte
}

// AllocRefs is Alloc written as a rope: the bytes it writes, of exactly
// their length, and the encodings of lend's and job it references, in
// the order of their offsets. job must stay as it is while the rope is
// kept. When the alloc goes to json.Marshal (see AppendTaskState), refs
// is empty and the bytes are the whole encoding.
func AllocRefs(a *structs.Allocation, job []byte, lend Lender) ([]byte, []Ref, error) {
	if a == nil {
		enc, err := Alloc(a, job, nil)
		return enc, nil, err
	}
	var refs []Ref
	enc, err := pooled(func(b []byte) ([]byte, error) {
		out, ok := appendAlloc(b, a, job, reuser{r: lend, alloc: a.ID, refs: &refs})
		if ok {
			return out, nil
		}
		refs = nil
		return appendMarshal(out[:0], a)
	})
	return enc, refs, err
}

// AppendAllocStateRefs is AppendAllocState written as a rope: it appends
// to b what it writes and to refs the encodings of lend it references
// (their offsets count in b). On a fallback to json.Marshal, refs is as
// it was and b holds the whole encoding.
func AppendAllocStateRefs(b []byte, allocID string, s *structs.AllocState, lend Lender, refs *[]Ref) ([]byte, error) {
	n, k := len(b), len(*refs)
	out, ok := appendAllocState(b, s, reuser{r: lend, alloc: allocID, refs: refs})
	if ok {
		return out, nil
	}
	*refs = (*refs)[:k]
	return appendMarshal(out[:n], s)
}

// Splice appends to b the encoding that flat and refs make (refs in the
// order of their offsets, which count in flat).
func Splice(b, flat []byte, refs []Ref) []byte {
	last := 0
	for _, r := range refs {
		b = append(b, flat[last:r.At]...)
		b = append(b, r.Enc...)
		last = r.At
	}
	return append(b, flat[last:]...)
}

// RopeLen is the length of the encoding flat and refs make.
func RopeLen(flat []byte, refs []Ref) int {
	n := len(flat)
	for _, r := range refs {
		n += len(r.Enc)
	}
	return n
}

// lent references enc at the end of b when the encoder writes a rope,
// else appends it.
func (u reuser) lent(b, enc []byte) []byte {
	if u.refs == nil {
		return append(b, enc...)
	}
	*u.refs = append(*u.refs, Ref{At: len(b), Enc: enc})
	return b
}

// lend references enc at the end of b and reports true, or returns b and
// false when the lender had no encoding (nil).
func (u reuser) lend(b, enc []byte) ([]byte, bool) {
	if enc == nil {
		return b, false
	}
	return u.lent(b, enc), true
}
