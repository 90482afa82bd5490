package linearizability

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

var propAliases = []string{"a", "b", "c"}

// drawMounts draws a map over a subset of propAliases.
func drawMounts(t *rapid.T, label string) map[string]string {
	m := map[string]string{}
	for _, a := range propAliases {
		if rapid.Bool().Draw(t, label+"."+a) {
			m[a] = fmt.Sprintf("/csi/%s/%d", a, rapid.IntRange(0, 2).Draw(t, label+"."+a+".src"))
		}
	}
	return m
}

// drawAliases draws a sorted subset of propAliases.
func drawAliases(t *rapid.T, label string) []string {
	var out []string
	for _, a := range propAliases {
		if rapid.Bool().Draw(t, label+"."+a) {
			out = append(out, a)
		}
	}
	return out
}

// A history recorded from an atomic implementation is linearizable: each
// op takes effect at a drawn instant inside its interval (an open write
// maybe never), reads report what HOOKRES-3 sees there.
func TestPropertyAtomicHookResourcesAreOk(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 8).Draw(t, "ops")
		plan := make([]plannedOp, n)
		for i := range plan {
			call := rapid.Int64Range(0, 40).Draw(t, "call")
			ret := call + rapid.Int64Range(0, 20).Draw(t, "duration")
			p := plannedOp{takes: true}
			p.at = rapid.Int64Range(call, ret).Draw(t, "at")
			p.op = Op{Client: i, Call: call, Return: ret}
			if rapid.Bool().Draw(t, "set") {
				p.op.Input = SetMounts{Mounts: drawMounts(t, "mounts")}
				if rapid.IntRange(0, 3).Draw(t, "open") == 0 {
					p.op.Return = Open
					p.takes = rapid.Bool().Draw(t, "takes")
				}
			} else {
				p.op.Input = GetMounts{Aliases: drawAliases(t, "aliases")}
			}
			plan[i] = p
		}
		ops := recordAtomic(plan, func() bool { return rapid.Bool().Draw(t, "sources") })
		r, err := CheckHookResources([]Partition{{Key: "alloc/0", Ops: ops}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != Ok {
			t.Fatalf("CheckHookResources(%v) = %v, want ok", ops, r)
		}
	})
}

// For a sequential history (no two ops overlap) linearizability is plain
// replay: the checker agrees with a naive replay of the register, and on
// several partitions reports the first failing one by key, whatever their
// order.
func TestPropertySequentialServerViewMatchesReplay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		values := []string{"", "v1", "v2", "v3"}
		keys := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a", "b", "c", "d"}), 1, 4, rapid.ID[string]).Draw(t, "keys")
		var parts []Partition
		firstBad := ""
		for _, key := range keys {
			n := rapid.IntRange(0, 6).Draw(t, "ops")
			var ops []Op
			state, ok := "", true
			for i := range n {
				call, ret := int64(2*i), int64(2*i+1)
				if rapid.Bool().Draw(t, "store") {
					v := rapid.SampledFrom(values[1:]).Draw(t, "value")
					ops = append(ops, store(0, call, ret, key, v))
					state = v
				} else {
					v := rapid.SampledFrom(values).Draw(t, "seen")
					ops = append(ops, read(1, call, ret, key, v))
					ok = ok && v == state
				}
			}
			if !ok && (firstBad == "" || key < firstBad) {
				firstBad = key
			}
			parts = append(parts, Partition{Key: key, Ops: ops})
		}
		r, err := CheckServerView(parts, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := Ok
		if firstBad != "" {
			want = Illegal
		}
		if r.Verdict != want || r.Key != firstBad {
			t.Fatalf("CheckServerView = %v (key %q), want %v (key %q)", r.Verdict, r.Key, want, firstBad)
		}
	})
}

// The same for hook resources, reads reporting a drawn first-missing alias.
func TestPropertySequentialHookResourcesMatchReplay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 8).Draw(t, "ops")
		var ops []Op
		state, ok := map[string]string{}, true
		for i := range n {
			call, ret := int64(2*i), int64(2*i+1)
			if rapid.Bool().Draw(t, "set") {
				m := drawMounts(t, "mounts")
				ops = append(ops, set(0, call, ret, m))
				state = m
			} else {
				aliases := drawAliases(t, "aliases")
				missing := rapid.SampledFrom(append([]string{""}, propAliases...)).Draw(t, "missing")
				ops = append(ops, get(1, call, ret, aliases, missing))
				want, _ := observe(state, aliases)
				ok = ok && missing == want
			}
		}
		r, err := CheckHookResources([]Partition{{Key: "alloc/0", Ops: ops}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]Verdict{true: Ok, false: Illegal}[ok]; r.Verdict != want {
			t.Fatalf("CheckHookResources(%v) = %v, want %v", ops, r, want)
		}
	})
}

// MaxInFlight agrees with counting, at every timestamp, the ops whose
// closed interval contains it.
func TestPropertyMaxInFlightMatchesCounting(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 10).Draw(t, "ops")
		ops := make([]Op, n)
		for i := range ops {
			call := rapid.Int64Range(0, 30).Draw(t, "call")
			ret := call + rapid.Int64Range(0, 10).Draw(t, "duration")
			if rapid.IntRange(0, 4).Draw(t, "open") == 0 {
				ret = Open
			}
			ops[i] = Op{Call: call, Return: ret}
		}
		want := 0
		for _, at := range ops {
			count := 0
			for _, o := range ops {
				if o.Call <= at.Call && at.Call <= o.Return {
					count++
				}
			}
			want = max(want, count)
		}
		if got := MaxInFlight(ops); got != want {
			t.Fatalf("MaxInFlight(%v) = %d, want %d", ops, got, want)
		}
	})
}

// Dropping the Open stores no read returned never changes a server-view
// verdict: on random concurrent histories (values may repeat, reads
// return any value or nothing, a third of the stores are Open) the
// checker with the reduction agrees with the search of the whole
// history, and Illegal histories are among them.
func TestPropertyDroppingUnreadOpenStoresKeepsVerdicts(t *testing.T) {
	illegal := 0
	rapid.Check(t, func(t *rapid.T) {
		values := []string{"v1", "v2", "v3", "v4"}
		n := rapid.IntRange(1, 9).Draw(t, "ops")
		ops := make([]Op, n)
		for i := range ops {
			call := rapid.Int64Range(0, 30).Draw(t, "call")
			o := Op{Client: i, Call: call, Return: call + rapid.Int64Range(0, 12).Draw(t, "duration")}
			if rapid.Bool().Draw(t, "store") {
				o.Input = StoreState{Alloc: "a", Value: rapid.SampledFrom(values).Draw(t, "value")}
				if rapid.IntRange(0, 2).Draw(t, "open") == 0 {
					o.Return = Open
				}
			} else {
				o.Input = ReadState{Alloc: "a"}
				o.Output = StateSeen{Value: rapid.SampledFrom(append([]string{""}, values...)).Draw(t, "seen")}
			}
			ops[i] = o
		}
		parts := []Partition{{Key: "a", Ops: ops}}
		whole, err := checker{name: "server view", model: serverViewModel, validOp: validServerViewOp}.check(parts, Options{})
		if err != nil {
			t.Fatal(err)
		}
		reduced, err := CheckServerView(parts, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if whole.Verdict != reduced.Verdict {
			t.Fatalf("verdict %v on the whole history, %v after dropping unread open stores (%d of %d ops left): %v",
				whole.Verdict, reduced.Verdict, len(dropUnreadOpenStores(ops)), len(ops), ops)
		}
		if whole.Verdict == Illegal {
			illegal++
		}
	})
	if illegal == 0 {
		t.Fatal("no Illegal history was drawn: the property compared only passes")
	}
}
