package telem

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/telemetry"
	"github.com/allocsim/allocsim/sim"
)

// What the world observed of a run, reduced to hook executions. A slot
// is one hook's emissions at one instant of one incarnation in one
// namespace: labels carry no alloc, so executions are told apart by
// their instant (every port call is logged with its invoke and return
// instants) and counted as multisets.

// slot locates emissions: metric is success, failed, elapsed, or "run"
// (either outcome, for expectations that do not fix it).
type slot struct {
	inc    int
	at     int64 // UnixNano
	ns     string
	hook   string
	metric string
	value  uint32 // float32 bits of an elapsed sample's value, else 0
}

func (s slot) String() string {
	if s.metric == telemetry.MetricElapsed {
		return fmt.Sprintf("%s = %v ms", s.where(), math.Float32frombits(s.value))
	}
	return s.where()
}

// where is the slot without an elapsed sample's value.
func (s slot) where() string {
	return fmt.Sprintf("%s %s at %s (incarnation %d, namespace %s)",
		s.hook, s.metric, time.Unix(0, s.at).UTC().Format(time.RFC3339Nano), s.inc, s.ns)
}

// multiset counts slots.
type multiset map[slot]int

// diff reports the first slot (in a stable order) whose counts differ.
func diff(want, got multiset) (slot, int, int, bool) {
	keys := make([]slot, 0, len(want)+len(got))
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, slotOrder)
	for _, k := range keys {
		if want[k] != got[k] {
			return k, got[k], want[k], true
		}
	}
	return slot{}, 0, 0, false
}

func slotOrder(a, b slot) int {
	return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.inc, b.inc), cmp.Compare(a.ns, b.ns),
		cmp.Compare(a.hook, b.hook), cmp.Compare(a.metric, b.metric), cmp.Compare(a.value, b.value))
}

// emission is one parsed hook emission.
type emission struct {
	sim.HookEmission
	kind     telemetry.HookKind
	hookType string
	metric   string
	ns, hook string
	known    bool // one of the six TELEM-1 names
}

func parse(e sim.HookEmission) emission {
	out := emission{HookEmission: e}
	for _, l := range e.Labels {
		switch l.Name {
		case telemetry.LabelNamespace:
			out.ns = l.Value
		case telemetry.LabelHookName:
			out.hook = l.Value
		}
	}
	for _, k := range []telemetry.HookKind{telemetry.AllocHook, telemetry.TaskHook} {
		ht := telemetry.HookTypePrerun
		if k == telemetry.TaskHook {
			ht = telemetry.HookTypePrestart
		}
		for _, m := range []string{telemetry.MetricSuccess, telemetry.MetricFailed, telemetry.MetricElapsed} {
			if e.Name == telemetry.Name(telemetry.Key(k, ht, m)) {
				out.kind, out.hookType, out.metric, out.known = k, ht, m, true
			}
		}
	}
	return out
}

func (e emission) slot(metric string) slot {
	s := slot{inc: e.Incarnation, at: e.At.UnixNano(), ns: e.ns, hook: e.hook, metric: metric}
	if metric == telemetry.MetricElapsed {
		s.value = math.Float32bits(e.Value)
	}
	return s
}

// observed is a run's hook executions as the world saw them.
type observed struct {
	calls []sim.PortCall
	ems   []emission
	nsOf  func(alloc string) string
}

func observe(w *sim.World) observed {
	o := observed{calls: w.PortCalls(), nsOf: func(id string) string {
		if a := w.Server().SharedAlloc(id); a != nil {
			return a.Namespace
		}
		return ""
	}}
	for _, e := range w.HookEmissions() {
		o.ems = append(o.ems, parse(e))
	}
	return o
}

// millis is TELEM-4's sample value of d as go-metrics stores it.
func millis(d time.Duration) uint32 { return math.Float32bits(float32(telemetry.ElapsedMillis(d))) }

// done reports whether c returned while its incarnation ran.
func done(c sim.PortCall) bool { return c.Returned && c.Live }

func outcome(err string) string {
	if err != "" {
		return telemetry.MetricFailed
	}
	return telemetry.MetricSuccess
}

// dirHooks are the expected emissions of the hooks whose only port call is
// a dir Build: for each Build that returned while its incarnation ran, one
// counter (outcome from the Build's error) and one elapsed sample of the
// Build's duration, both at its return.
func (o observed) dirHooks(op, hook string) (counters, samples multiset) {
	counters, samples = multiset{}, multiset{}
	for _, c := range o.calls {
		if c.Op != op || !done(c) {
			continue
		}
		s := slot{inc: c.Incarnation, at: c.Return.UnixNano(), ns: o.nsOf(c.Alloc), hook: hook}
		s.metric = outcome(c.Err)
		counters[s]++
		s.metric, s.value = telemetry.MetricElapsed, millis(c.Duration())
		samples[s]++
	}
	return counters, samples
}

// csiRuns are the expected csi_hook executions: for each alloc dir Build
// that succeeded while its incarnation ran (await_previous_allocations
// and migrate_disk take no virtual time), the hook starts at the Build's
// return and ends when the last of its alloc's mounts invoked from then on
// (until the alloc's next Build) returned. A pass whose mount has not
// returned, or returned after a crash, emits nothing.
func (o observed) csiRuns() (runs, samples multiset) {
	runs, samples = multiset{}, multiset{}
	for i, b := range o.calls {
		if b.Op != sim.PortAllocDirBuild || !done(b) || b.Err != "" {
			continue
		}
		next := time.Time{}
		for _, c := range o.calls[i+1:] {
			if c.Op == sim.PortAllocDirBuild && c.Alloc == b.Alloc && c.Incarnation == b.Incarnation {
				next = c.Invoke
				break
			}
		}
		end, ok := b.Return, true
		for _, c := range o.calls {
			if c.Op != sim.PortCSIMount || c.Alloc != b.Alloc || c.Incarnation != b.Incarnation ||
				c.Invoke.Before(b.Return) || (!next.IsZero() && !c.Invoke.Before(next)) {
				continue
			}
			if !done(c) {
				ok = false
				break
			}
			if c.Return.After(end) {
				end = c.Return
			}
		}
		if !ok {
			continue
		}
		s := slot{inc: b.Incarnation, at: end.UnixNano(), ns: o.nsOf(b.Alloc), hook: telemetry.HookCSI, metric: "run"}
		runs[s]++
		s.metric, s.value = telemetry.MetricElapsed, millis(end.Sub(b.Return))
		samples[s]++
	}
	return runs, samples
}

// actual counts the emissions of hook: counters by outcome (or "run" when
// anyOutcome) and elapsed samples by value.
func (o observed) actual(hook string, anyOutcome bool) (counters, samples multiset) {
	counters, samples = multiset{}, multiset{}
	for _, e := range o.ems {
		if !e.known || e.hook != hook {
			continue
		}
		switch {
		case e.metric == telemetry.MetricElapsed:
			samples[e.slot(telemetry.MetricElapsed)]++
		case anyOutcome:
			counters[e.slot("run")]++
		default:
			counters[e.slot(e.metric)]++
		}
	}
	return counters, samples
}

// followers are the expected executions of a zero-time hook that runs
// right after each successful execution of prev: one at the same instant.
func followers(prev multiset, hook string) multiset {
	out := multiset{}
	for s, n := range prev {
		if s.metric == telemetry.MetricSuccess {
			s.hook, s.metric = hook, "run"
			out[s] += n
		}
	}
	return out
}

// counters are hook's emitted counters by outcome.
func (o observed) counters(hook string) multiset {
	c, _ := o.actual(hook, false)
	return c
}

// allocsAt lists the allocs with a port call returning at s (for messages).
func (o observed) allocsAt(s slot) string {
	var ids []string
	for _, c := range o.calls {
		if c.Incarnation == s.inc && c.Returned && c.Return.UnixNano() == s.at && o.nsOf(c.Alloc) == s.ns {
			ids = append(ids, c.Op+" "+short(c.Alloc)+"/"+c.Task)
		}
	}
	return strings.Join(slices.Compact(ids), ", ")
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
