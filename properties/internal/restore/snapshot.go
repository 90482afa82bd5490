package restore

import (
	"maps"
	"slices"
	"time"

	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// snapshotInterval is STATE-2's period of the `alloc` write.
const snapshotInterval = 60 * time.Second

// allocEvery60s: STATE-2 writes `alloc` on add, every 60 s and on
// shutdown. While a client incarnation is up, every alloc it persisted
// (a write of its `alloc` in this incarnation, or one restored from an
// earlier one) is written again at most 60 s after the previous write,
// or after the incarnation's start; a failed write counts (it is
// logged). Half the runs hand the client a state DB of its user's own,
// which cannot batch (sim.Config.UnbatchedStateDB): the snapshot is then
// written alloc by alloc.
var allocEvery60s = prop.Property{
	ID:     "STATE-2/alloc-every-60s",
	Specs:  []string{"STATE-2"},
	Doc:    "while the client is up, every alloc it runs has its alloc entry written at least every 60 s (batched or not)",
	Faults: []faults.Class{faults.ClientCrash, faults.StateDBWriteFailure},
	Draw:   drawCrashes,
	Unbatched: func(sc scenario.Scenario) bool {
		return unbatchedRun(sc)
	},
	Situations: []prop.Situation{
		{Name: "batched", Doc: "a run whose state DB batches the snapshot (impl/state)"},
		{Name: "unbatched", Doc: "a run whose state DB cannot batch: the snapshot writes alloc by alloc"},
		{Name: "rewritten", Doc: "an alloc written again by the periodic snapshot, 60 s after the previous write"},
		{Name: "restored-rewritten", Doc: "an alloc restored after a crash written by the restarted client's snapshot, 60 s after the restart"},
	},
	New: func(sc scenario.Scenario) prop.Checker {
		c := &snapshotChecker{last: map[string]time.Time{}, persisted: map[string]bool{}, restored: map[string]bool{}, unbatched: unbatchedRun(sc)}
		return prop.Checks{OnSettled: c.settled}
	},
}

// unbatchedRun picks the runs with a state DB that cannot batch: one in
// two, by a bit of the seed.
func unbatchedRun(sc scenario.Scenario) bool { return sc.Seed>>8&1 == 1 }

type snapshotChecker struct {
	unbatched bool
	up        bool
	last      map[string]time.Time // alloc → its last `alloc` write in this incarnation, or the incarnation's start
	persisted map[string]bool      // alloc → an `alloc` write ever succeeded (it is in the storage)
	restored  map[string]bool      // alloc → persisted at this incarnation's start (situations only)
	start     time.Time            // this incarnation's start
}

func (c *snapshotChecker) settled(v *prop.View) {
	if c.unbatched {
		v.Reach("unbatched")
	} else {
		v.Reach("batched")
	}
	for _, r := range v.New {
		switch {
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash:
			c.up = false
			clear(c.last)
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
			c.up, c.start = true, r.At
			clear(c.restored)
			for id := range c.persisted {
				c.last[id], c.restored[id] = r.At, true
			}
		case r.Kind == trace.KindStateDB && r.Op == "put alloc" && c.up:
			if prev, ok := c.last[r.Alloc]; ok && r.At.Sub(prev) == snapshotInterval {
				v.Reach("rewritten")
			}
			if c.restored[r.Alloc] && r.At.Sub(c.start) == snapshotInterval {
				v.Reach("restored-rewritten")
			}
			c.last[r.Alloc] = r.At
			if r.Msg == "ok" {
				c.persisted[r.Alloc] = true
			}
		}
	}
	if !c.up {
		return
	}
	for _, id := range slices.Sorted(maps.Keys(c.last)) {
		if since := v.Now().Sub(c.last[id]); since > snapshotInterval {
			v.Violatef(id, "", "time since the alloc entry was last written (or the client started)", since,
				"at most "+snapshotInterval.String()+" (STATE-2: alloc on add, every 60 s)")
			return
		}
	}
}
