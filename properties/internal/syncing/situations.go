package syncing

import (
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/trace"
)

// pushes follows what the runners push of each alloc, for the situation
// counts: the distinct states in order, with the instants they became the
// latest.
type pushes struct {
	last map[string]*structs.AllocState
	hist map[string][]pushedState
	read readAllocs
}

func newPushes() *pushes {
	return &pushes{last: map[string]*structs.AllocState{}, hist: map[string][]pushedState{}}
}

// next returns the allocs whose state changed since the previous instant.
func (p *pushes) next(v *prop.View) []string {
	var out []string
	for _, a := range v.Allocs() {
		if p.read.unchanged(a) {
			continue
		}
		st := a.SharedClientState() // a is the world's snapshot, never changed
		if last := p.last[a.ID]; last != nil && equal(last, st) {
			continue
		}
		p.last[a.ID] = st
		p.hist[a.ID] = append(p.hist[a.ID], pushedState{at: v.Now(), state: st})
		out = append(out, a.ID)
	}
	return out
}

// changedWithin reports whether a state of alloc other than st became
// the latest in (from, to].
func (p *pushes) changedWithin(alloc string, st *structs.AllocState, from, to time.Time) bool {
	for _, x := range p.hist[alloc] {
		if x.at.After(from) && !x.at.After(to) && !equal(x.state, st) {
			return true
		}
	}
	return false
}

// inFlight is the UpdateAlloc of incarnation inc the feed has in flight
// at t, if any.
func (f *callFeed) inFlight(inc int, t time.Time) (sim.SyncCall, bool) {
	for _, i := range f.byInc[inc] {
		if c := f.calls[i]; c.InFlight(t) {
			return c, true
		}
	}
	return sim.SyncCall{}, false
}

// inBackoff reports whether incarnation inc's latest call failed and no
// call followed it by t (the loop waits for the retry tick).
func (f *callFeed) inBackoff(inc int, t time.Time) bool {
	idx := f.byInc[inc]
	if len(idx) == 0 {
		return false
	}
	last := f.calls[idx[len(idx)-1]]
	return last.Returned && last.Err != "" && !last.Return.After(t)
}

// partitions follows the rpc_partition faults of the trace.
type partitions struct{ on bool }

func (p *partitions) see(recs []trace.Record) {
	for _, r := range recs {
		if r.Kind != trace.KindFault {
			continue
		}
		switch {
		case r.Op == string(faults.RPCPartition) && r.Msg == "fire":
			p.on = true
		case r.Op == string(faults.RPCPartition) && r.Msg == "heal", r.Msg == "healed":
			p.on = false
		}
	}
}

// rpcOutcomes are the rpc records of method with msg.
func rpcRecords(recs []trace.Record, method, msg string) []trace.Record {
	var out []trace.Record
	for _, r := range recs {
		if r.Kind == trace.KindRPC && r.Op == method && (msg == "" || strings.HasPrefix(r.Msg, msg)) {
			out = append(out, r)
		}
	}
	return out
}
