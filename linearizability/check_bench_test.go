package linearizability

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchClients are the clients of benchHistory's partition: the CSI hook
// setting the map and four tasks reading it, each task mounting its own
// sorted aliases of the group's a, b and c.
var benchClients = []struct {
	name    string
	aliases []string // nil for the setter
}{
	{"csi_hook", nil},
	{"web", []string{"a"}},
	{"sidecar", []string{"a", "b"}},
	{"db", []string{"b", "c"}},
	{"batch", []string{"a", "b", "c"}},
}

// benchHistory is one hook-resources partition of n operations recorded
// from an atomic implementation, so it is linearizable and a check has to
// find a linearization of the whole of it: the clients of benchClients
// each call one operation after another (a client's own calls never
// overlap), with gaps of 0 to 50 and durations of 1 to 100 logical
// nanoseconds, so up to five operations are in flight at once. Each
// operation takes effect at a drawn instant inside its interval; the
// setter replaces the map with the complete map of a, b and c at a new
// generation of sources (one set in ten clears it, an unmount), and every
// read reports what HOOKRES-3 sees at its instant, sources recorded for
// half of them. seed fixes the history.
func benchHistory(n int, seed uint64) Partition {
	rng := rand.New(rand.NewPCG(seed, 0x600d))
	plan := make([]plannedOp, 0, n)
	next := make([]int64, len(benchClients)) // each client's next free instant
	gen := 0
	for len(plan) < n {
		c := rng.IntN(len(benchClients))
		call := next[c] + rng.Int64N(51)
		ret := call + 1 + rng.Int64N(100)
		next[c] = ret + 1
		p := plannedOp{op: Op{Client: c, Call: call, Return: ret}, at: call + rng.Int64N(ret-call+1), takes: true}
		if benchClients[c].aliases == nil {
			m := map[string]string{}
			if rng.IntN(10) != 0 {
				gen++
				for _, a := range []string{"a", "b", "c"} {
					m[a] = fmt.Sprintf("/csi/%s/%d", a, gen)
				}
			}
			p.op.Input = SetMounts{Mounts: m}
		} else {
			p.op.Input = GetMounts{Aliases: benchClients[c].aliases}
		}
		plan = append(plan, p)
	}
	ops := recordAtomic(plan, func() bool { return rng.IntN(2) == 0 })
	return Partition{Key: "alloc/0", Ops: ops}
}

// BenchmarkPorcupine10k: porcupine's check of one linearizable
// hook-resources partition of 10,000 operations by five concurrent
// clients (benchHistory), within DefaultBudget (whose Ops it reaches). It
// reports the operations per run and the most operations in flight at
// once (MaxInFlight).
func BenchmarkPorcupine10k(b *testing.B) {
	const n = 10000
	part := benchHistory(n, 1)
	parts := []Partition{part}
	b.ResetTimer()
	for range b.N {
		r, err := CheckHookResources(parts, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if r.Verdict != Ok {
			b.Fatalf("CheckHookResources(benchHistory(%d, 1)) = %v, want ok", n, r)
		}
	}
	b.ReportMetric(n, "ops/run")
	b.ReportMetric(float64(MaxInFlight(part.Ops)), "max-in-flight")
}
