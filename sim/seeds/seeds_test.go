package seeds

import (
	"regexp"
	"testing"

	"github.com/shoenig/test/must"
)

func draws(n int, f func() uint64) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = f()
	}
	return out
}

// TestStreamsAreIndependent: a stream depends on (seed, name) only.
func TestStreamsAreIndependent(t *testing.T) {
	a := Stream(7, "server")
	b := Stream(7, "server")
	must.Eq(t, draws(5, a.Uint64), draws(5, b.Uint64))
	c := Stream(7, "client/1")
	d := Stream(8, "server")
	must.NotEq(t, draws(5, Stream(7, "server").Uint64), draws(5, c.Uint64))
	must.NotEq(t, draws(5, Stream(7, "server").Uint64), draws(5, d.Uint64))
}

// TestDecisionIsKeyed: a decision depends on seed, class, key and ordinal.
func TestDecisionIsKeyed(t *testing.T) {
	base := Decision(1, "rpc_failure", "Node.UpdateAlloc", 3).Uint64()
	must.EqOp(t, base, Decision(1, "rpc_failure", "Node.UpdateAlloc", 3).Uint64())
	for _, other := range []uint64{
		Decision(2, "rpc_failure", "Node.UpdateAlloc", 3).Uint64(),
		Decision(1, "rpc_latency", "Node.UpdateAlloc", 3).Uint64(),
		Decision(1, "rpc_failure", "Node.GetClientAllocs", 3).Uint64(),
		Decision(1, "rpc_failure", "Node.UpdateAlloc", 4).Uint64(),
	} {
		must.NotEq(t, base, other)
	}
}

func TestID(t *testing.T) {
	r := Stream(42, "ids")
	id := ID(r)
	must.True(t, regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`).MatchString(id), must.Sprint(id))
	must.NotEq(t, id, ID(r))
	must.EqOp(t, id, ID(Stream(42, "ids")))
}

func TestRandDrawer(t *testing.T) {
	d := RandDrawer{R: Stream(1, "draw")}
	for i := 0; i < 100; i++ {
		must.Between(t, 3, d.IntRange("x", 3, 5), 5)
	}
	must.EqOp(t, 4, d.IntRange("x", 4, 4))
	must.EqOp(t, 4, d.IntRange("x", 4, 2))
	heads := 0
	for i := 0; i < 100; i++ {
		if d.Bool("coin") {
			heads++
		}
	}
	must.Between(t, 20, heads, 80)
	must.EqOp(t, "b", Pick[string](RandDrawer{R: Stream(1, "one")}, "p", []string{"b"}))
}
