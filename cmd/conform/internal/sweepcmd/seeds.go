package sweepcmd

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
)

// Range is the seeds From..To, both included (From ≤ To).
type Range struct {
	From uint64 `json:"from"`
	To   uint64 `json:"to"`
}

// Len is how many seeds r holds (a range of every uint64 but 0 still
// fits: seeds start at 1).
func (r Range) Len() uint64 { return r.To - r.From + 1 }

// Contains reports whether seed s is in r.
func (r Range) Contains(s uint64) bool { return r.From <= s && s <= r.To }

func (r Range) String() string {
	if r.From == r.To {
		return strconv.FormatUint(r.From, 10)
	}
	return fmt.Sprintf("%d..%d", r.From, r.To)
}

// parseRange parses "A..B" with 1 ≤ A ≤ B (seed 0 means "no seed" to
// the suite).
func parseRange(s string) (Range, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "..")
	from, err1 := strconv.ParseUint(a, 10, 64)
	to, err2 := strconv.ParseUint(b, 10, 64)
	if !ok || err1 != nil || err2 != nil || from == 0 || to < from {
		return Range{}, fmt.Errorf("want A..B with 1 ≤ A ≤ B (e.g. 1..10000)")
	}
	return Range{From: from, To: to}, nil
}

// Shard is shard Index of Count (1 ≤ Index ≤ Count).
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// parseShard parses "i/n" with 1 ≤ i ≤ n (cli.ParseShard).
func parseShard(s string) (Shard, error) {
	i, n, err := cli.ParseShard(s)
	return Shard{Index: i, Count: n}, err
}

// shardRange is shard sh's contiguous slice of r: with N = r.Len(),
//
//	from = r.From + ⌊(i−1)·N/n⌋,   to = r.From + ⌊i·N/n⌋ − 1
//
// so shard sizes differ by at most one and shards 1..n cover r exactly
// once, in order. The products are computed in 128 bits. A shard would
// be empty when n > N; that is an error.
func shardRange(r Range, sh Shard) (Range, error) {
	n := uint64(sh.Count)
	if r.Len() < n { // From ≥ 1, so Len never wraps to 0
		return Range{}, fmt.Errorf("%d shards of %d seeds (%s): some would be empty; use at most %d shards", sh.Count, r.Len(), r, r.Len())
	}
	lo := r.From + floorMulDiv(uint64(sh.Index-1), r.Len(), n)
	hi := r.From + floorMulDiv(uint64(sh.Index), r.Len(), n) - 1
	return Range{From: lo, To: hi}, nil
}

// floorMulDiv is ⌊a·b/n⌋ for a ≤ n (so the quotient fits in 64 bits
// and Div64 cannot overflow).
func floorMulDiv(a, b, n uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	q, _ := bits.Div64(hi, lo, n)
	return q
}

// chunkAt is the chunk of size seeds that holds seed s when chunks are
// laid out from shard.From: chunk k is shard.From + k·size ..
// shard.From + (k+1)·size − 1, the last one cut at shard.To.
func chunkAt(shard Range, size, s uint64) Range {
	k := (s - shard.From) / size
	from := shard.From + k*size
	to := shard.To
	if shard.To-from >= size {
		to = from + size - 1
	}
	return Range{From: from, To: to}
}

// Set is a set of seeds: sorted, disjoint, non-adjacent ranges.
type Set []Range

// normalize sorts and merges ranges into a Set.
func normalize(rs []Range) Set {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b Range) int {
		switch {
		case a.From < b.From:
			return -1
		case a.From > b.From:
			return 1
		}
		return 0
	})
	var out Set
	for _, r := range rs {
		if r.To < r.From {
			continue
		}
		if n := len(out); n > 0 && (out[n-1].To == math.MaxUint64 || r.From <= out[n-1].To+1) {
			out[n-1].To = max(out[n-1].To, r.To)
			continue
		}
		out = append(out, r)
	}
	return out
}

// union is the seeds in any of sets.
func union(sets ...Set) Set {
	var all []Range
	for _, s := range sets {
		all = append(all, s...)
	}
	return normalize(all)
}

// intersect is the seeds in both a and b.
func intersect(a, b Set) Set {
	var out Set
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].From, b[j].From), min(a[i].To, b[j].To)
		if lo <= hi {
			out = append(out, Range{From: lo, To: hi})
		}
		if a[i].To < b[j].To {
			i++
		} else {
			j++
		}
	}
	return out
}

// without is the seeds of r not in s.
func without(r Range, s Set) Set {
	var out Set
	next := r.From
	for _, x := range s {
		if x.To < next || x.From > r.To {
			continue
		}
		if x.From > next {
			out = append(out, Range{From: next, To: x.From - 1})
		}
		if x.To >= r.To {
			return out
		}
		next = x.To + 1
	}
	return append(out, Range{From: next, To: r.To})
}

// Len is how many seeds s holds (saturating at MaxUint64).
func (s Set) Len() uint64 {
	var n uint64
	for _, r := range s {
		sum, carry := bits.Add64(n, r.Len(), 0)
		if carry != 0 {
			return math.MaxUint64
		}
		n = sum
	}
	return n
}

// firstMissing is the first seed of r not in s, if any.
func firstMissing(r Range, s Set) (uint64, bool) {
	gaps := without(r, s)
	if len(gaps) == 0 {
		return 0, false
	}
	return gaps[0].From, true
}

func (s Set) String() string {
	if len(s) == 0 {
		return "none"
	}
	parts := make([]string, len(s))
	for i, r := range s {
		parts[i] = r.String()
	}
	return strings.Join(parts, ", ")
}
