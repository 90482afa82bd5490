package hookresources

import (
	"encoding/json"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/telemetry"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// situations are the cases HOOKRES-1..4 distinguish, for both
// properties (they draw the same runs): what the CSI prerun does while a
// restore, an update or a stop races it, and what the volumes prestart
// reads.
var situations = []prop.Situation{
	{Name: "restore-prerun-skipped", Doc: "a restored incarnation that ran no CSI prerun for an alloc with CSI volumes (it should not run)"},
	{Name: "restore-during-slow-mount", Doc: "a restored incarnation's CSI prerun mounts from the stubs, taking virtual time"},
	{Name: "crash-during-prerun", Doc: "the client crashed with a CSI mount of the prerun in flight"},
	{Name: "mount-fails", Doc: "a CSI mount failed: the prerun sets nothing"},
	{Name: "restore-mount-fails", Doc: "a CSI mount failed in a restored incarnation (restore with the prerun failing)"},
	{Name: "restore-task-recovered", Doc: "a restored task that mounts CSI volumes recovered its handle (no prestart)"},
	{Name: "restore-recover-fails", Doc: "a restored task that mounts CSI volumes failed to recover (its prestart runs again)"},
	// A volumes prestart that finds a mount missing (HOOKRES-3's `No CSI
	// Mount Point found`) is not among them: a conforming runner never
	// gets there. A task's prestart runs only after the alloc's CSI
	// prerun set the complete map (AR-4: a failing prerun fails every
	// task with Setup Failure instead; an alloc that should not run runs
	// neither prerun nor prestart; STATE-4: a restore reruns the prerun
	// first), and the map is never unset (HOOKRES-1, HOOKRES-2). It is
	// the #16623 failure itself, which the hookres mutants reach and the
	// properties catch (their seeds in fixtures/seeds/mutants.txt).
	{Name: "start-with-complete-map", Doc: "a task that mounts CSI volumes started once the complete map was set"},
	{Name: "read-at-write-instant", Doc: "a prestart read the map at the instant the CSI hook set it (concurrent set and get)"},
	{Name: "several-readers", Doc: "two tasks of one alloc read its map in one incarnation"},
	{Name: "update-during-prerun", Doc: "an in-place job update (AR-10) while a CSI mount was in flight"},
	{Name: "stop-during-prerun", Doc: "a job stop while a CSI mount was in flight"},
	{Name: "run-returned-after-mounts", Doc: "a runner that mounted CSI volumes in the running incarnation returned from Run (postrun unmounts them)"},
}

// reach counts, at the end of a run, the situations its trace and port
// calls show.
func reach(v *prop.View) {
	if _, ms := returnedMounts(v); len(ms) > 0 {
		v.Reach("run-returned-after-mounts")
	}
	type key struct {
		alloc string
		inc   int
	}
	recs := v.Records()
	crashed := map[int]bool{}
	for _, r := range recs {
		if r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash {
			crashed[incarnationOf(r)] = true
		}
	}
	var mounts []sim.PortCall
	mounted := map[key]map[string]time.Time{}
	prerun := map[key]bool{} // a mount was invoked
	for _, c := range v.World.PortCalls() {
		if c.Op != sim.PortCSIMount {
			continue
		}
		mounts = append(mounts, c)
		prerun[key{c.Alloc, c.Incarnation}] = true
		switch {
		case c.Returned && !c.Live, !c.Returned && crashed[c.Incarnation]:
			v.Reach("crash-during-prerun")
		case c.Err != "":
			v.Reach("mount-fails")
			if c.Incarnation > 1 {
				v.Reach("restore-mount-fails")
			}
		default:
			if c.Incarnation > 1 && c.Return.After(c.Invoke) {
				v.Reach("restore-during-slow-mount")
			}
			k := key{c.Alloc, c.Incarnation}
			if mounted[k] == nil {
				mounted[k] = map[string]time.Time{}
			}
			if _, ok := mounted[k][c.Task]; !ok && c.Returned {
				mounted[k][c.Task] = c.Return
			}
		}
	}
	// complete is when the last of an alloc's group aliases was mounted in
	// an incarnation: when the CSI hook may set the complete map.
	complete := func(k key) (time.Time, bool) {
		var last time.Time
		aliases := groupAliases(v, k.alloc)
		for _, a := range aliases {
			at, ok := mounted[k][a]
			if !ok {
				return time.Time{}, false
			}
			if at.After(last) {
				last = at
			}
		}
		return last, len(aliases) > 0
	}
	// inFlight: a mount invoked before t had not returned before t (a
	// stop or an update at t cancels or races it: a mount the stop
	// cancelled returns at t itself).
	inFlight := func(t time.Time) bool {
		for _, c := range mounts {
			if c.Invoke.Before(t) && (!c.Returned || !c.Return.Before(t)) {
				return true
			}
		}
		return false
	}
	inc := 0
	readers := map[key]map[string]bool{}
	read := func(k key, task string, at time.Time) {
		if done, ok := complete(k); ok && done.Equal(at) {
			v.Reach("read-at-write-instant")
		}
		if readers[k] == nil {
			readers[k] = map[string]bool{}
		}
		if readers[k][task] = true; len(readers[k]) > 1 {
			v.Reach("several-readers")
		}
	}
	for _, r := range recs {
		k := key{r.Alloc, inc}
		switch {
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
			if n := incarnationOf(r); n > 0 {
				inc = n
			}
			for _, id := range v.World.Server().NodeAllocIDs(v.World.NodeID()) {
				if inc > 1 && len(groupAliases(v, id)) > 0 && !prerun[key{id, inc}] {
					v.Reach("restore-prerun-skipped")
				}
			}
		case r.Kind == trace.KindAPI && r.Op == string(scenario.OpUpdateSchedule) && inFlight(r.At):
			v.Reach("update-during-prerun")
		case r.Kind == trace.KindAPI && r.Op == string(scenario.OpStopJob) && inFlight(r.At):
			v.Reach("stop-during-prerun")
		case r.Kind != trace.KindDriver && r.Kind != trace.KindTaskEvent, len(csiAliases(v, r.Alloc, r.Task)) == 0:
		case r.Kind == trace.KindDriver && r.Op == string(drivers.OpRecover) && inc > 1:
			if r.Msg == "ok" {
				v.Reach("restore-task-recovered")
			} else if r.Msg != "already_tracked" {
				v.Reach("restore-recover-fails")
			}
		case r.Kind == trace.KindDriver && r.Op == string(drivers.OpStart):
			if done, ok := complete(k); ok && !r.At.Before(done) {
				v.Reach("start-with-complete-map")
			}
			read(k, r.Task, r.At)
		case r.Kind == trace.KindTaskEvent && r.Msg == structs.TaskHookFailed:
			var e struct{ Message string }
			if json.Unmarshal(r.Data, &e) != nil {
				continue
			}
			hook, msg, _ := structs.SplitHookFailed(e.Message)
			if _, missing := structs.MissingCSIMount(msg); hook == telemetry.HookVolumes && missing {
				read(k, r.Task, r.At)
			}
		}
	}
}

// incarnationOf is a client_start or client_crash record's incarnation.
func incarnationOf(r trace.Record) int {
	var d struct{ Incarnation int }
	if json.Unmarshal(r.Data, &d) != nil {
		return 0
	}
	return d.Incarnation
}
