package syncing

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/trace"
)

// callEvent is a start or a return of one UpdateAlloc call.
type callEvent struct {
	// Index is the call's position in World.SyncCalls.
	Index  int
	Return bool
	Call   sim.SyncCall
}

func (e callEvent) seq() uint64 {
	if e.Return {
		return e.Call.ReturnSeq
	}
	return e.Call.Seq
}

// callFeed reads the world's UpdateAlloc log incrementally: each step it
// re-reads only from the first call still in flight, and only when the
// log changed.
type callFeed struct {
	calls []sim.SyncCall
	byInc map[int][]int // incarnation → indices into calls, in start order
	open  int           // first index not yet returned
	seq   uint64        // the log's World.SyncSeq when last read
}

// next returns the starts and returns logged since the previous call, in
// the world's sequence order (a return before a start that follows it).
func (f *callFeed) next(w *sim.World) []callEvent {
	// Every start and return moves the log's sequence: with none since
	// the last read, there is nothing new.
	seq := w.SyncSeq()
	if seq == f.seq {
		return nil
	}
	f.seq = seq
	var out []callEvent
	for i, c := range w.SyncCalls(f.open) {
		idx := f.open + i
		if idx >= len(f.calls) {
			if f.byInc == nil {
				f.byInc = map[int][]int{}
			}
			f.calls = append(f.calls, c)
			f.byInc[c.Incarnation] = append(f.byInc[c.Incarnation], idx)
			out = append(out, callEvent{Index: idx, Call: c})
			if c.Returned {
				out = append(out, callEvent{Index: idx, Return: true, Call: c})
			}
			continue
		}
		if !f.calls[idx].Returned && c.Returned {
			f.calls[idx] = c
			out = append(out, callEvent{Index: idx, Return: true, Call: c})
		}
	}
	for f.open < len(f.calls) && f.calls[f.open].Returned {
		f.open++
	}
	slices.SortFunc(out, func(a, b callEvent) int { return cmp.Compare(a.seq(), b.seq()) })
	return out
}

// acks is what each incarnation's runners hold as the acknowledged state
// of each alloc (SYNC-3): at the incarnation's start, what its restore
// loaded (STATE-3: the persisted acknowledged_state, read from the state
// DB at the incarnation's first settled instant, before it can have
// acknowledged anything), then what every UpdateAlloc of the incarnation
// that returned without error carried (the last entry of an alloc in a
// request wins, as the server applies them in order).
type acks struct {
	cur     map[incAlloc]*structs.AllocState
	at      map[incAlloc]time.Time // when the call that acknowledged it returned (zero: restored)
	started map[int]bool
}

type incAlloc struct {
	inc   int
	alloc string
}

func newAcks() *acks {
	return &acks{cur: map[incAlloc]*structs.AllocState{}, at: map[incAlloc]time.Time{}, started: map[int]bool{}}
}

// start reads the restored acknowledged states of a running incarnation
// the first time it is seen, for every alloc the server placed on the
// node that its restore loaded (the alloc entry stored: an
// acknowledged_state left behind by an alloc whose alloc entry was never
// written is restored by nothing, and the alloc's next runner, built
// from a pull, has none: sweep seed 3483); withRestored false starts it
// with none (acknowledgements of one incarnation only).
func (a *acks) start(v *prop.View, inc int, withRestored bool) {
	if a.started[inc] {
		return
	}
	a.started[inc] = true
	if !withRestored || inc <= 1 {
		return
	}
	for _, id := range v.World.Server().NodeAllocIDs(v.World.NodeID()) {
		if a, err := v.World.PersistedAlloc(id); err != nil || a == nil {
			continue
		}
		if s, err := v.World.AcknowledgedState(id); err == nil && s != nil {
			a.cur[incAlloc{inc, id}] = s
		}
	}
}

// apply records a returned call's acknowledgements; other events change
// nothing.
func (a *acks) apply(e callEvent) {
	if !e.Return || !e.Call.OK() {
		return
	}
	for _, en := range e.Call.Allocs {
		k := incAlloc{e.Call.Incarnation, en.AllocID}
		a.cur[k], a.at[k] = en.State, e.Call.Return
	}
}

// of is incarnation inc's acknowledged state of alloc, nil for none.
func (a *acks) of(inc int, alloc string) *structs.AllocState { return a.cur[incAlloc{inc, alloc}] }

// urgent is SYNC-2's Urgent for state against the acknowledged one (nil:
// none acknowledged, then only failed is urgent).
func urgent(state, acked *structs.AllocState) bool {
	return syncpolicy.StatePriority(state, acked) == syncpolicy.Urgent
}

// jump is one clock jump (clock_jump fault): the clock went from From to
// To at once.
type jump struct{ From, To time.Time }

// jumps collects the clock jumps of the trace records a view brings.
func jumpsIn(recs []trace.Record) []jump {
	var out []jump
	for _, r := range recs {
		if r.Kind != trace.KindWorld || r.Msg != "clock_resumed" {
			continue
		}
		var d struct {
			From string `json:"from"`
		}
		from := r.At
		if json.Unmarshal(r.Data, &d) == nil {
			if t, err := time.Parse(trace.TimeFormat, d.From); err == nil {
				from = t
			}
		}
		out = append(out, jump{From: from, To: r.At})
	}
	return out
}

// jumpedWithin reports whether a clock jump overlaps [from, to].
func jumpedWithin(js []jump, from, to time.Time) bool {
	for _, j := range js {
		if !j.To.Before(from) && !j.From.After(to) {
			return true
		}
	}
	return false
}

// incarnations tracks when each client incarnation stopped running, as
// the settled instants show it.
type incarnations struct {
	stopped map[int]time.Time
	last    int
}

func newIncarnations() *incarnations { return &incarnations{stopped: map[int]time.Time{}} }

// observe reads the world's incarnation at a settled instant.
func (n *incarnations) observe(v *prop.View) (inc int, running bool) {
	inc, running = v.World.Incarnation()
	for i := n.last; i < inc; i++ {
		if i > 0 {
			if _, ok := n.stopped[i]; !ok {
				n.stopped[i] = v.Now()
			}
		}
	}
	if !running && inc > 0 {
		if _, ok := n.stopped[inc]; !ok {
			n.stopped[inc] = v.Now()
		}
	}
	n.last = inc
	return inc, running
}

// stoppedBy reports whether incarnation inc had stopped by t.
func (n *incarnations) stoppedBy(inc int, t time.Time) bool {
	at, ok := n.stopped[inc]
	return ok && !at.After(t)
}

// firstAlloc names the first alloc of call's request ("" for none): the
// alloc a violation about the whole call is reported on.
func firstAlloc(call sim.SyncCall) string {
	if len(call.Allocs) == 0 {
		return ""
	}
	return call.Allocs[0].AllocID
}

// hasRunner reports whether the running client, incarnation inc, holds a
// live runner for alloc (interfaces.Client.AllocRunner): SYNC-3 sends an
// update without one never urgent, and acknowledges nothing to it.
func hasRunner(v *prop.View, inc int, alloc string) bool {
	cur, running := v.World.Incarnation()
	if !running || cur != inc {
		return false
	}
	c := v.World.Client()
	if c == nil {
		return false
	}
	_, ok := c.AllocRunner(alloc)
	return ok
}

// at prints a virtual instant for a violation.
func at(t time.Time) string { return t.UTC().Format(trace.TimeFormat) }
