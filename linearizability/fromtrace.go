package linearizability

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/model/telemetry"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/sim/trace"
)

// Volumes tells the hook-resource builder an alloc's CSI aliases: its
// group's (what the CSI hook mounts and sets) and those a task mounts
// (what its volumes prestart checks), each sorted.
type Volumes interface {
	GroupAliases(alloc string) []string
	TaskAliases(alloc, task string) []string
}

// HookResourcesFromTrace builds the hook-resource histories of a run from
// its trace (written with the scenario's HookLatency set, so that port
// calls are traced), one partition per alloc and client incarnation
// (each incarnation builds a new runner, so a new hook resources object),
// timestamps in nanoseconds since start:
//
//   - the CSI hook's write: once every group alias was mounted in the
//     incarnation, SetMounts of the complete map, called when the last
//     mount returned (HOOKRES-2 sets after every mount) and returning
//     when the alloc's first task prestart after it builds a task dir:
//     csi_hook is the last prerun hook and prerun ends before any task
//     starts (AR-4, AR-5 runs task_dir first), so the map is set by then;
//     Open while no task has begun a prestart since (when the runner set
//     it is not observable);
//   - each volumes prestart read: a `Task hook failed` event
//     `volumes: No CSI Mount Point found for volume: X` (Missing X) or the
//     task's driver StartTask (every alias present), returning when it was
//     seen and called at the task's latest task dir build before it
//     (AR-5 runs task_dir first) or the incarnation's start.
//
// Crashes and faults become run-wide annotations (the second result).
func HookResourcesFromTrace(recs []trace.Record, start time.Time, vols Volumes) ([]Partition, []Annotation) {
	type key struct {
		alloc string
		inc   int
	}
	ts := func(t time.Time) int64 { return t.Sub(start).Nanoseconds() }
	inc := 0
	incStart := map[int]time.Time{}
	mounted := map[key]map[string]time.Time{}
	lastBuild := map[key]map[string]time.Time{} // task → latest task dir build return
	ops := map[key][]Op{}
	clients := map[key][]string{}
	client := func(k key, name string) int {
		if i := slices.Index(clients[k], name); i >= 0 {
			return i
		}
		clients[k] = append(clients[k], name)
		return len(clients[k]) - 1
	}
	var marks []Annotation
	setting := map[key]int{}           // the CSI hook's write, by index in ops
	builds := map[key][]trace.Record{} // task dir build invocations
	read := func(k key, task string, missing string, at time.Time, note string) {
		call := incStart[k.inc]
		if b, ok := lastBuild[k][task]; ok && b.After(call) {
			call = b
		}
		aliases := vols.TaskAliases(k.alloc, task)
		client(k, "csi_hook")
		ops[k] = append(ops[k], Op{Client: client(k, task), Call: ts(call), Return: ts(at),
			Input: GetMounts{Aliases: aliases}, Output: MountsSeen{Missing: missing},
			Note: fmt.Sprintf("%s read %s between %s and %s (%s)", task, seenMap(aliases, missing), clock(call), clock(at), note)})
	}
	for _, r := range recs {
		k := key{r.Alloc, inc}
		switch {
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
			var d struct{ Incarnation int }
			if json.Unmarshal(r.Data, &d) == nil && d.Incarnation > 0 {
				inc, incStart[d.Incarnation] = d.Incarnation, r.At
			}
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash:
			marks = append(marks, point("crashes", ts(r.At), "client crash", r.String()))
		case r.Kind == trace.KindFault:
			marks = append(marks, point("faults", ts(r.At), strings.TrimSpace(r.Op+" "+r.Msg), r.String()))
		case inc == 0: // before the first client start: no hook resources yet
		case r.Kind == trace.KindPort && r.Msg == "ok" && r.Op == trace.PortCSIMount:
			if mounted[k] == nil {
				mounted[k] = map[string]time.Time{}
			}
			if _, ok := mounted[k][r.Task]; !ok {
				mounted[k][r.Task] = r.At
				if m, last, ok := complete(vols.GroupAliases(r.Alloc), mounted[k]); ok && last.Equal(r.At) {
					setting[k] = len(ops[k])
					ops[k] = append(ops[k], Op{Client: client(k, "csi_hook"), Call: ts(last), Return: Open, Input: SetMounts{Mounts: m},
						Note: fmt.Sprintf("csi_hook may set the complete map %v from %s on (its last mount returned)", slices.Sorted(maps.Keys(m)), clock(last))})
				}
			}
		case r.Kind == trace.KindPort && r.Op == trace.PortTaskDirBuild && r.Msg == "invoke":
			builds[k] = append(builds[k], r)
		case r.Kind == trace.KindPort && r.Op == trace.PortTaskDirBuild:
			if lastBuild[k] == nil {
				lastBuild[k] = map[string]time.Time{}
			}
			lastBuild[k][r.Task] = r.At
		case r.Kind == trace.KindDriver && r.Op == string(drivers.OpStart) && len(vols.TaskAliases(r.Alloc, r.Task)) > 0:
			read(k, r.Task, "", r.At, "driver StartTask: every CSI alias was present")
		case r.Kind == trace.KindTaskEvent && r.Msg == structs.TaskHookFailed:
			var e struct{ Time, Message string }
			if json.Unmarshal(r.Data, &e) != nil {
				continue
			}
			hook, hookErr, _ := structs.SplitHookFailed(e.Message)
			alias, ok := structs.MissingCSIMount(hookErr)
			at, err := time.Parse(trace.TimeFormat, e.Time)
			if hook != telemetry.HookVolumes || !ok || err != nil || at.Before(incStart[inc]) {
				continue // another failure, or a restored event of an earlier incarnation
			}
			read(k, r.Task, alias, at, "Task hook failed: "+e.Message)
		}
	}
	// The write returns by the first task dir build at or after its call
	// (the records of one instant are in the recorder's order, not the
	// order of the calls, so an instant's builds count as after its
	// mounts).
	for k, i := range setting {
		w := &ops[k][i]
		for _, b := range builds[k] {
			if ts(b.At) >= w.Call {
				w.Return = ts(b.At)
				w.Note = fmt.Sprintf("csi_hook sets the complete map %v between %s (its last mount returned) and %s (prerun over: %s's task dir build began)",
					slices.Sorted(maps.Keys(w.Input.(SetMounts).Mounts)), clock(start.Add(time.Duration(w.Call))), clock(b.At), b.Task)
				break
			}
		}
	}
	parts := make([]Partition, 0, len(ops))
	for k, o := range ops {
		parts = append(parts, Partition{Key: fmt.Sprintf("%s/%d", k.alloc, k.inc), Ops: o})
	}
	slices.SortFunc(parts, func(a, b Partition) int { return strings.Compare(a.Key, b.Key) })
	return parts, marks
}

// complete returns the complete map of group and the instant its last
// alias was mounted, if every alias was.
func complete(group []string, mounted map[string]time.Time) (map[string]string, time.Time, bool) {
	m := map[string]string{}
	var last time.Time
	for _, a := range group {
		at, ok := mounted[a]
		if !ok {
			return nil, time.Time{}, false
		}
		m[a] = ""
		if at.After(last) {
			last = at
		}
	}
	return m, last, len(group) > 0
}

// ServerViewFromTrace builds the server-view histories of a run from its
// trace, one partition per alloc, timestamps in nanoseconds since start:
// every alloc starts stored `pending` (the server places it so, SYNC-4);
// each Node.UpdateAlloc stores each alloc's ClientStatus, called at its
// send and returning at its reply, Open when it failed, was cut by a
// crash, or overlapped another UpdateAlloc (then which reply is whose is
// not observable); each Alloc.GetAllocs reply (the alloc pull's fetch;
// a Node.GetClientAllocs reply is only an index map) reads each alloc's
// ClientStatus between its send and its reply.
//
// An UpdateAlloc the server rejected (its SYNC-4 validation failed: say
// `missing node ID`) certainly stored nothing, so its stores are left
// out. Overlapping calls are rejected together or not at all: when every
// call of a run of overlapping calls (from one with none in flight to the
// next time none is) ended in a rejection, each was rejected; otherwise
// which failure is whose is not observable and all stay Open. A runner
// whose every update is rejected so gives a trivial history, not one of
// hundreds of uncertain stores whose search would grow without end.
func ServerViewFromTrace(recs []trace.Record, start time.Time) []Partition {
	ts := func(t time.Time) int64 { return t.Sub(start).Nanoseconds() }
	type call struct {
		ops        []int // indexes into out of its stores
		overlapped bool  // another UpdateAlloc was in flight with it
	}
	var out []Op
	seen := map[string]bool{}
	var inflight []*call
	var overlapping []*call // calls sent since none was last in flight
	rejections := 0         // of them, how many ended in a rejection
	rejected := map[int]bool{}
	var pulls []time.Time
	init := func(id string) {
		if !seen[id] {
			seen[id] = true
			out = append(out, Op{Client: 0, Call: 0, Return: 0, Input: StoreState{Alloc: id, Value: structs.AllocClientStatusPending},
				Note: "placed pending"})
		}
	}
	for _, r := range recs {
		if r.Kind == trace.KindWorld && r.Msg == trace.MsgClientCrash {
			inflight, pulls = nil, nil // cut calls leave no trace; their stores stay Open
			overlapping, rejections = nil, 0
			continue
		}
		if r.Kind != trace.KindRPC {
			continue
		}
		switch {
		case r.Op == structs.RPCNodeUpdateAlloc && r.Msg == "send":
			var d struct{ Allocs []rpcAlloc }
			_ = json.Unmarshal(r.Data, &d)
			c := &call{overlapped: len(inflight) > 0}
			for _, o := range inflight {
				o.overlapped = true
			}
			if len(inflight) == 0 {
				overlapping, rejections = nil, 0
			}
			overlapping = append(overlapping, c)
			for _, a := range d.Allocs {
				init(a.ID)
				c.ops = append(c.ops, len(out))
				out = append(out, Op{Client: 1, Call: ts(r.At), Return: Open, Input: StoreState{Alloc: a.ID, Value: a.ClientStatus},
					Note: fmt.Sprintf("Node.UpdateAlloc sent %s at %s", a.ClientStatus, clock(r.At))})
			}
			inflight = append(inflight, c)
		case r.Op == structs.RPCNodeUpdateAlloc && (r.Msg == "reply" || r.Msg == "fail") && len(inflight) > 0:
			c := inflight[0]
			inflight = inflight[1:]
			if r.Msg == "reply" && !c.overlapped {
				for _, i := range c.ops {
					out[i].Return = ts(r.At)
					out[i].Note += ", acknowledged at " + clock(r.At)
				}
			}
			if r.Msg == "fail" && rejectedUpdate(r.Data) {
				rejections++
			}
			if len(inflight) == 0 && rejections == len(overlapping) {
				for _, c := range overlapping {
					for _, i := range c.ops {
						rejected[i] = true
					}
				}
			}
		case r.Op == structs.RPCAllocGetAllocs && r.Msg == "send":
			pulls = append(pulls, r.At)
		case r.Op == structs.RPCAllocGetAllocs && r.Msg == "reply" && len(pulls) > 0:
			from := pulls[0]
			pulls = pulls[1:]
			var d struct{ Allocs []rpcAlloc }
			_ = json.Unmarshal(r.Data, &d)
			for _, a := range d.Allocs {
				init(a.ID)
				out = append(out, Op{Client: 2, Call: ts(from), Return: ts(r.At), Input: ReadState{Alloc: a.ID},
					Output: StateSeen{Value: a.ClientStatus}, Note: fmt.Sprintf("Alloc.GetAllocs read %s by %s", a.ClientStatus, clock(r.At))})
			}
		case r.Op == structs.RPCAllocGetAllocs && r.Msg == "fail" && len(pulls) > 0:
			pulls = pulls[1:]
		}
	}
	kept := out[:0]
	for i, o := range out {
		if !rejected[i] {
			kept = append(kept, o)
		}
	}
	parts, _ := PartitionServerView(kept) // every input is a StoreState or ReadState
	return parts
}

// rejectedUpdate reports whether a failed Node.UpdateAlloc's record data
// (its error) is one of the server's SYNC-4 validation errors, which the
// server returns before it stores anything; a failure of the network, or
// a call the caller abandoned, is not.
func rejectedUpdate(data json.RawMessage) bool {
	var d struct{ Error string }
	if json.Unmarshal(data, &d) != nil {
		return false
	}
	e := d.Error
	switch {
	case e == syncpolicy.MsgNoAllocs, e == syncpolicy.MsgMissingNodeID, e == syncpolicy.MsgEvalsSet:
		return true
	case matchesFormat(e, syncpolicy.MsgNodeNotFound), matchesFormat(e, syncpolicy.MsgNodeStatusBlocked):
		return true
	}
	return false
}

// matchesFormat reports whether s is format with each %s verb replaced by
// some text: its literal parts appear in order, the first at the start and
// the last at the end.
func matchesFormat(s, format string) bool {
	lits := strings.Split(format, "%s")
	if len(lits) == 1 {
		return s == format
	}
	if !strings.HasPrefix(s, lits[0]) {
		return false
	}
	s = s[len(lits[0]):]
	for _, lit := range lits[1 : len(lits)-1] {
		i := strings.Index(s, lit)
		if i < 0 {
			return false
		}
		s = s[i+len(lit):]
	}
	return strings.HasSuffix(s, lits[len(lits)-1])
}

// rpcAlloc is an alloc as an RPC record summarises it.
type rpcAlloc struct {
	ID           string `json:"id"`
	ClientStatus string `json:"client_status"`
}

func point(tag string, at int64, desc, details string) Annotation {
	return Annotation{Tag: tag, Start: at, End: at, Description: desc, Details: details}
}

// clock prints an instant of a history.
func clock(t time.Time) string { return t.UTC().Format("15:04:05.999999999Z") }

// seenMap says what a read of aliases that stopped at missing saw.
func seenMap(aliases []string, missing string) string {
	i := slices.Index(aliases, missing)
	switch {
	case missing == "":
		return fmt.Sprintf("every alias %v", aliases)
	case i == 0:
		return "the empty map"
	case i > 0:
		return fmt.Sprintf("a partial map (%v present, %s absent)", aliases[:i], missing)
	default:
		return "no mount for " + missing
	}
}
