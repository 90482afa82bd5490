package sweepcmd

import (
	"math"
	"testing"

	"github.com/shoenig/test/must"
)

func TestParseRange(t *testing.T) {
	cases := []struct {
		in   string
		want Range
		ok   bool
	}{
		{"1..6", Range{1, 6}, true},
		{" 7..7 ", Range{7, 7}, true},
		{"1..18446744073709551615", Range{1, math.MaxUint64}, true},
		{"0..5", Range{}, false},
		{"6..1", Range{}, false},
		{"1-6", Range{}, false},
		{"1..", Range{}, false},
		{"..6", Range{}, false},
		{"a..b", Range{}, false},
		{"1..18446744073709551616", Range{}, false},
		{"", Range{}, false},
	}
	for _, tc := range cases {
		got, err := parseRange(tc.in)
		if !tc.ok {
			must.EqError(t, err, "want A..B with 1 ≤ A ≤ B (e.g. 1..10000)", must.Sprint(tc.in))
			continue
		}
		must.NoError(t, err, must.Sprint(tc.in))
		must.EqOp(t, tc.want, got)
	}
}

func TestParseShard(t *testing.T) {
	for _, in := range []string{"0/2", "3/2", "1/0", "-1/2", "1", "a/b", "1/2/3", ""} {
		_, err := parseShard(in)
		must.EqError(t, err, "want i/n with 1 ≤ i ≤ n (e.g. 1/4)", must.Sprint(in))
	}
	sh, err := parseShard("2/4")
	must.NoError(t, err)
	must.EqOp(t, Shard{2, 4}, sh)
	must.EqOp(t, "2/4", sh.String())
}

// TestShardRange pins the formula on examples.
func TestShardRange(t *testing.T) {
	cases := []struct {
		seeds Range
		shard Shard
		want  Range
	}{
		{Range{1, 6}, Shard{1, 2}, Range{1, 3}},
		{Range{1, 6}, Shard{2, 2}, Range{4, 6}},
		{Range{1, 10}, Shard{1, 3}, Range{1, 3}},
		{Range{1, 10}, Shard{2, 3}, Range{4, 6}},
		{Range{1, 10}, Shard{3, 3}, Range{7, 10}},
		{Range{100, 100}, Shard{1, 1}, Range{100, 100}},
		{Range{5, 7}, Shard{3, 3}, Range{7, 7}},
		{Range{1, math.MaxUint64}, Shard{2, 2}, Range{1 + (math.MaxUint64 / 2), math.MaxUint64}},
		{Range{1, math.MaxUint64}, Shard{1, 3}, Range{1, math.MaxUint64 / 3}},
	}
	for _, tc := range cases {
		got, err := shardRange(tc.seeds, tc.shard)
		must.NoError(t, err)
		must.EqOp(t, tc.want, got, must.Sprintf("shard %s of %s", tc.shard, tc.seeds))
	}
	_, err := shardRange(Range{1, 3}, Shard{1, 4})
	must.EqError(t, err, "4 shards of 3 seeds (1..3): some would be empty; use at most 3 shards")
}

// TestShardsPartition: for every small range and shard count, the shards
// are contiguous, in order, cover the range exactly once and differ in
// size by at most one.
func TestShardsPartition(t *testing.T) {
	for _, from := range []uint64{1, 2, 17, math.MaxUint64 - 40} {
		for n := uint64(1); n <= 40; n++ {
			seeds := Range{From: from, To: from + n - 1}
			for count := 1; count <= int(n); count++ {
				next := seeds.From
				minLen, maxLen := uint64(math.MaxUint64), uint64(0)
				for i := 1; i <= count; i++ {
					r, err := shardRange(seeds, Shard{i, count})
					must.NoError(t, err)
					must.EqOp(t, next, r.From, must.Sprintf("shard %d/%d of %s", i, count, seeds))
					must.LessEq(t, seeds.To, r.To)
					minLen, maxLen = min(minLen, r.Len()), max(maxLen, r.Len())
					next = r.To + 1
				}
				must.EqOp(t, seeds.To+1, next, must.Sprintf("%d shards of %s end at its last seed", count, seeds))
				must.LessEq(t, minLen+1, maxLen)
			}
		}
	}
}

func TestChunkAt(t *testing.T) {
	shard := Range{4, 10}
	cases := []struct {
		size, seed uint64
		want       Range
	}{
		{3, 4, Range{4, 6}},
		{3, 6, Range{4, 6}},
		{3, 7, Range{7, 9}},
		{3, 10, Range{10, 10}},
		{1, 8, Range{8, 8}},
		{200, 9, Range{4, 10}},
	}
	for _, tc := range cases {
		must.EqOp(t, tc.want, chunkAt(shard, tc.size, tc.seed), must.Sprintf("size %d seed %d", tc.size, tc.seed))
	}
	top := Range{math.MaxUint64 - 4, math.MaxUint64}
	must.EqOp(t, Range{math.MaxUint64 - 1, math.MaxUint64}, chunkAt(top, 3, math.MaxUint64))
	must.EqOp(t, Range{1, math.MaxUint64}, chunkAt(Range{1, math.MaxUint64}, math.MaxUint64, 5))
}

func TestSets(t *testing.T) {
	s := normalize([]Range{{7, 9}, {1, 2}, {3, 4}, {8, 12}, {20, 20}, {5, 4}})
	must.Eq(t, Set{{1, 4}, {7, 12}, {20, 20}}, s)
	must.EqOp(t, uint64(11), s.Len())
	must.EqOp(t, "1..4, 7..12, 20", s.String())
	must.EqOp(t, "none", Set(nil).String())

	must.Eq(t, Set{{1, math.MaxUint64}}, normalize([]Range{{5, math.MaxUint64}, {1, 4}, {math.MaxUint64, math.MaxUint64}}))
	must.EqOp(t, uint64(math.MaxUint64), Set{{1, math.MaxUint64}, {0, 0}}.Len(), must.Sprint("saturates"))

	must.Eq(t, Set{{1, 12}, {20, 20}}, union(s, Set{{5, 6}}))
	must.Eq(t, Set{{3, 4}, {7, 8}}, intersect(s, Set{{3, 8}}))
	must.Eq(t, Set(nil), intersect(s, Set{{13, 19}}))
	must.Eq(t, Set{{5, 6}, {13, 15}}, without(Range{3, 15}, s))
	must.Eq(t, Set(nil), without(Range{8, 10}, s))
	must.Eq(t, Set{{1, 10}}, without(Range{1, 10}, nil))
	must.Eq(t, Set{{math.MaxUint64, math.MaxUint64}}, without(Range{1, math.MaxUint64}, Set{{1, math.MaxUint64 - 1}}))

	first, ok := firstMissing(Range{1, 12}, s)
	must.True(t, ok)
	must.EqOp(t, uint64(5), first)
	_, ok = firstMissing(Range{7, 12}, s)
	must.False(t, ok)
}
