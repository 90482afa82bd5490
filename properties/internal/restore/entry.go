package restore

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// allocEntryCurrent: STATE-2's `alloc` entry is the runner's alloc as of
// the write. A write after the runner got an in-place update (a higher
// AllocModifyIndex, AR-10, with no task event) stores the new server
// alloc, not one built before it; and PersistState called straight on
// the runner (AR-1) right after SetClientStatus stores the overridden
// status (AR-8), and returns the write's error: nil exactly when the
// `alloc` write succeeded (SPEC-NOTES).
var allocEntryCurrent = prop.Property{
	ID:     "STATE-2/alloc-entry-current",
	Specs:  []string{"STATE-2", "STATE-1", "AR-1", "AR-8", "AR-10"},
	Doc:    "every `alloc` write stores the runner's current alloc (after in-place updates and a SetClientStatus), and PersistState returns the write's error",
	Faults: []faults.Class{faults.StateDBWriteFailure},
	Draw:   drawEntry,
	Situations: []prop.Situation{
		{Name: "written-after-update", Doc: "an alloc entry written after the runner got an in-place update"},
		{Name: "call-persisted", Doc: "PersistState after SetClientStatus wrote the alloc: the entry has the override"},
		{Name: "call-write-failed", Doc: "a PersistState called directly whose alloc write failed"},
	},
	New: func(sc scenario.Scenario) prop.Checker {
		c := &entryChecker{callAt: sc.Start.Add(entryCallAt(sc)), known: map[string]uint64{}, first: map[string]uint64{}}
		return prop.Checks{OnSettled: c.settled}
	},
}

// drawEntry draws a service job of one long-running task, updated in
// place once or twice (the job registered again unchanged: a higher
// AllocModifyIndex, no task event) before the first 60 s snapshot or
// between snapshots, and on some runs failing `alloc` writes.
func drawEntry(d *prop.Drawer, env prop.Env) scenario.Scenario {
	main := task("main", nil, map[string]any{"kill_after": "500ms"})
	j := &structs.Job{ID: "job1", Name: "job1", Type: structs.JobTypeService, TaskGroups: []*structs.TaskGroup{{Name: "g1", Count: 1, Tasks: []*structs.Task{main}}}}
	j.Canonicalize()
	sc := scenario.Scenario{Start: prop.Pick(d, "start", scenario.Starts), Duration: scenario.Duration(d.Duration("duration", 2*time.Minute, 4*time.Minute, time.Minute)),
		Jobs: []scenario.JobAt{{Job: j}}}
	at := time.Duration(0)
	for i := 0; i < d.IntRange("updates", 1, 2); i++ {
		at += d.Duration("update after", 3*time.Second, 50*time.Second, 100*time.Millisecond)
		sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(at), Op: scenario.OpUpdateSchedule, Job: "job1", Task: "main"})
	}
	if env.Allows(faults.StateDBWriteFailure) && d.IntRange("write failures", 0, 2) == 0 {
		sc.Faults = append(sc.Faults, faults.Fault{Class: faults.StateDBWriteFailure, Rate: float64(d.IntRange("write failure percent", 30, 70)) / 100,
			Key: "alloc"}) // STATE-1 key
	}
	return sc
}

// entryCallAt is when the checker calls PersistState: 10 s after the
// last in-place update.
func entryCallAt(sc scenario.Scenario) time.Duration {
	at := time.Duration(0)
	for _, c := range sc.Calls {
		at = max(at, c.At.D())
	}
	return at + 10*time.Second
}

type entryChecker struct {
	up     bool
	callAt time.Time
	called bool
	known  map[string]uint64 // alloc → the live runner's AllocModifyIndex at the previous settled instant
	first  map[string]uint64 // alloc → the first AllocModifyIndex its runner had (situations only)
}

func (c *entryChecker) settled(v *prop.View) {
	written := map[string]bool{}
	for _, r := range v.New {
		switch {
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash:
			c.up = false
			clear(c.known)
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
			c.up = true
		case r.Kind == trace.KindStateDB && r.Op == "put alloc" && r.Msg == "ok" && c.up:
			written[r.Alloc] = true
		}
	}
	for _, id := range slices.Sorted(maps.Keys(written)) {
		if c.checkStored(v, id, "") {
			return
		}
	}
	if !c.up {
		return
	}
	if !c.called && !v.Now().Before(c.callAt) {
		if c.call(v); v.Failed() {
			return
		}
	}
	for _, a := range v.Allocs() {
		if ar := v.World.AllocRunner(a.ID); ar != nil && !ar.IsDestroyed() {
			c.known[a.ID] = ar.Alloc().AllocModifyIndex
			if _, ok := c.first[a.ID]; !ok {
				c.first[a.ID] = c.known[a.ID]
			}
		}
	}
}

// checkStored checks alloc id's stored entry against the runner's alloc
// index known before this instant's writes and, when status is not
// empty, its client status; it reports a violation.
func (c *entryChecker) checkStored(v *prop.View, id, status string) bool {
	stored, err := v.World.PersistedAlloc(id)
	if err != nil || stored == nil {
		return false
	}
	if k, ok := c.known[id]; ok {
		if k > c.first[id] {
			v.Reach("written-after-update")
		}
		if stored.AllocModifyIndex < k {
			v.Violatef(id, "", "AllocModifyIndex of the alloc entry written", stored.AllocModifyIndex,
				fmt.Sprintf("at least %d (the runner's alloc before the write, updated in place: STATE-2 writes the runner's alloc)", k))
			return true
		}
	}
	if status != "" && stored.ClientStatus != status {
		v.Violatef(id, "", "ClientStatus of the alloc entry PersistState wrote after SetClientStatus", stored.ClientStatus,
			status+" (the runner's Alloc(): the override wins, AR-8; STATE-2 writes the runner's alloc)")
		return true
	}
	return false
}

// call persists a running alloc's runner straight (AR-1), overrides its
// status and persists again: each PersistState returns its write's
// error, and the entry then holds the override.
func (c *entryChecker) call(v *prop.View) {
	for _, a := range v.Allocs() {
		ar := v.World.AllocRunner(a.ID)
		if ar == nil || ar.IsDestroyed() || a.ClientStatus != structs.AllocClientStatusRunning {
			continue
		}
		c.called = true
		n := len(v.Records())
		var errs [2]error
		var status string
		v.World.Do(func() {
			errs[0] = ar.PersistState()
			ar.SetClientStatus(structs.AllocClientStatusFailed)
			status = ar.Alloc().ClientStatus
			errs[1] = ar.PersistState()
		})
		c.checkCall(v, ar, a.ID, v.Records()[n:], errs, status)
		return
	}
}

func (c *entryChecker) checkCall(v *prop.View, ar interfaces.AllocRunner, id string, recs []trace.Record, errs [2]error, status string) {
	var puts []trace.Record
	for _, r := range recs {
		if r.Kind == trace.KindStateDB && r.Op == "put alloc" && r.Alloc == id {
			puts = append(puts, r)
		}
	}
	if len(puts) != len(errs) || ar.IsDestroyed() {
		return
	}
	for i, r := range puts {
		if ok := r.Msg == "ok"; ok != (errs[i] == nil) {
			v.Violatef(id, "", "PersistState's error after its alloc write returned "+r.Msg, errs[i],
				"the write's error: nil exactly when the write succeeded (AR-1, STATE-2, SPEC-NOTES)")
			return
		}
		if r.Msg != "ok" {
			v.Reach("call-write-failed")
		}
	}
	if puts[1].Msg != "ok" {
		return
	}
	v.Reach("call-persisted")
	c.checkStored(v, id, status)
}
