package hookres

import (
	"fmt"
	"sync"
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

func mountPointGen() *rapid.Generator[*interfaces.CSIMountPoint] {
	return rapid.Custom(func(t *rapid.T) *interfaces.CSIMountPoint {
		return &interfaces.CSIMountPoint{
			Source:   rapid.StringMatching(`/mnt/[a-z]{1,4}`).Draw(t, "source"),
			IsDevice: rapid.Bool().Draw(t, "isDevice"),
		}
	})
}

// poolGen draws the complete maps a scenario sets (never nil entries: nil
// dropping is a table test).
func poolGen() *rapid.Generator[[]mounts] {
	m := rapid.MapOfN(rapid.StringMatching(`[a-z]{1,3}`), mountPointGen(), 0, 6)
	return rapid.SliceOfN(m, 1, 4)
}

func opsGen(poolSize int) *rapid.Generator[[]op] {
	one := rapid.Custom(func(t *rapid.T) op {
		return op{
			Kind: opKind(rapid.IntRange(0, 3).Draw(t, "kind")),
			Pool: rapid.IntRange(0, poolSize-1).Draw(t, "pool"),
			Mut:  mutation(rapid.IntRange(0, int(numMutations)-1).Draw(t, "mut")),
		}
	})
	return rapid.SliceOfN(one, 1, 40)
}

// TestPropertySequentialInterleavings: any sequence of set, get and
// mutation of returned or passed maps shows readers the empty map before
// the first set and exactly the last complete map afterwards (HOOKRES-2,
// HOOKRES-4).
func TestPropertySequentialInterleavings(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pool := poolGen().Draw(t, "pool")
		ops := opsGen(len(pool)).Draw(t, "ops")
		if err := runOps(New(), pool, ops); err != nil {
			t.Fatalf("%v\nops: %v", err, ops)
		}
	})
}

// TestBrokenStoresAreCaught shows that runOps fails on stores that alias,
// copy shallowly or merge, and passes the real one on the same scenario.
func TestBrokenStoresAreCaught(t *testing.T) {
	pool := []mounts{
		{"a": {Source: "/a"}, "b": {Source: "/b"}},
		{"c": {Source: "/c"}},
	}
	cases := []struct {
		name  string
		store func() mountStore
		ops   []op
	}{
		{"alias, mutate argument", func() mountStore { return &aliasStore{} },
			[]op{{Kind: opSet}, {Kind: opMutateArg, Mut: mutDelete}, {Kind: opGet}}},
		{"alias, mutate returned map", func() mountStore { return &aliasStore{} },
			[]op{{Kind: opSet}, {Kind: opGet}, {Kind: opMutateGot, Mut: mutAdd}, {Kind: opGet}}},
		{"shallow, mutate argument's mount point", func() mountStore { return &shallowStore{} },
			[]op{{Kind: opSet}, {Kind: opMutateArg, Mut: mutSource}, {Kind: opGet}}},
		{"shallow, mutate returned mount point", func() mountStore { return &shallowStore{} },
			[]op{{Kind: opSet}, {Kind: opGet}, {Kind: opMutateGot, Mut: mutDevice}, {Kind: opGet}}},
		{"merge keeps stale entries", func() mountStore { return &mergeStore{} },
			[]op{{Kind: opSet, Pool: 0}, {Kind: opSet, Pool: 1}, {Kind: opGet}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.Error(t, runOps(tc.store(), pool, tc.ops))
			must.NoError(t, runOps(New(), pool, tc.ops))
		})
	}
}

// TestPropertyConcurrentReadersSeeCompleteMaps runs real goroutines:
// writers set fresh copies of pool maps and then mutate what they passed,
// readers get and mutate what they got. Every read must be the empty map or
// one complete pool map, and the final map must be some writer's last set
// (HOOKRES-4). Run it with -race.
func TestPropertyConcurrentReadersSeeCompleteMaps(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pool := poolGen().Draw(t, "pool")
		allowed := map[string]bool{encode(mounts{}): true}
		for _, m := range pool {
			allowed[encode(m)] = true
		}
		idx := rapid.IntRange(0, len(pool)-1)
		writers := rapid.SliceOfN(rapid.SliceOfN(idx, 1, 30), 1, 4).Draw(t, "writers")
		readers := rapid.IntRange(1, 4).Draw(t, "readers")
		reads := rapid.IntRange(1, 30).Draw(t, "reads")

		h := New()
		start := make(chan struct{})
		errs := make(chan error, readers*reads)
		var wg sync.WaitGroup
		for w, seq := range writers {
			wg.Go(func() {
				<-start
				for i, p := range seq {
					arg := copyMounts(pool[p])
					h.SetCSIMounts(arg)
					mutation(i%int(numMutations)).apply(arg, w*1000+i)
				}
			})
		}
		for r := range readers {
			wg.Go(func() {
				<-start
				for i := range reads {
					got := h.GetCSIMounts()
					if !allowed[encode(got)] {
						errs <- fmt.Errorf("reader %d read %d: partial or foreign map %s", r, i, encode(got))
					}
					mutation(i%int(numMutations)).apply(got, r*1000+i)
				}
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}

		final := encode(h.GetCSIMounts())
		lastSets := map[string]bool{}
		for _, seq := range writers {
			lastSets[encode(pool[seq[len(seq)-1]])] = true
		}
		if !lastSets[final] {
			t.Fatalf("final map %s is no writer's last set %v", final, lastSets)
		}
	})
}
