package main

import (
	"crypto/sha256"
	"encoding/binary"
	"sort"
	"strconv"
)

// rank is a mutant's place in the draw of seed: the first 8 bytes of
// SHA-256(seed, ID). It depends on the seed and the mutant's own ID only,
// so it is the same on every machine and Go version, and a mutant keeps
// its place when others are added or removed elsewhere in the tree.
func rank(seed uint64, id string) uint64 {
	h := sha256.Sum256([]byte(strconv.FormatUint(seed, 10) + "\x00" + id))
	return binary.BigEndian.Uint64(h[:8])
}

// drawOrder returns the indices of ms in the order of seed's draw.
func drawOrder(ms []Mutant, seed uint64) []int {
	idx := make([]int, len(ms))
	ranks := make([]uint64, len(ms))
	for i := range ms {
		idx[i] = i
		ranks[i] = rank(seed, ms[i].ID())
	}
	sort.SliceStable(idx, func(a, b int) bool { return ranks[idx[a]] < ranks[idx[b]] })
	return idx
}

// selection is what a run judges: the mutants drawn, in enumeration
// order, and those drawn on the way that do not compile.
type selection struct {
	Judged  []int          // indices into the enumeration, ascending
	Invalid map[int]string // index → the compile error
}

// selectMutants picks n mutants that compile (valid reports nil for
// one) in seed's draw order, or every mutant when n <= 0; the invalid
// ones met on the way are recorded, not counted towards n. valid may be
// nil (no check: every mutant counts).
func selectMutants(ms []Mutant, n int, seed uint64, valid func(Mutant) error) selection {
	sel := selection{Invalid: map[int]string{}}
	order := make([]int, len(ms))
	for i := range order {
		order[i] = i
	}
	if n > 0 {
		order = drawOrder(ms, seed)
	}
	for _, i := range order {
		if n > 0 && len(sel.Judged) == n {
			break
		}
		if valid != nil {
			if err := valid(ms[i]); err != nil {
				sel.Invalid[i] = err.Error()
				continue
			}
		}
		sel.Judged = append(sel.Judged, i)
	}
	sort.Ints(sel.Judged)
	return sel
}
