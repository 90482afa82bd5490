package benchbubble

import (
	"flag"
	"testing"
	"testing/synctest"
)

// Run runs f in a synctest bubble of its own, once, and fails b if f
// failed. testing.RunTests runs its tests -test.count times, so the flag
// is 1 while it runs: -count N repeats the benchmark, not the simulation
// inside one op.
func Run(b *testing.B, f func(t *testing.T)) {
	b.Helper()
	if count := flag.Lookup("test.count"); count != nil {
		old := count.Value.String()
		if err := count.Value.Set("1"); err != nil {
			b.Fatal(err)
		}
		defer func() { _ = count.Value.Set(old) }()
	}
	ok := testing.RunTests(func(string, string) (bool, error) { return true, nil },
		[]testing.InternalTest{{Name: b.Name(), F: func(t *testing.T) { synctest.Test(t, f) }}})
	if !ok {
		b.Fatal("simulation failed")
	}
}
