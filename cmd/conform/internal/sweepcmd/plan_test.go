package sweepcmd

import (
	"fmt"
	"testing"

	"github.com/allocsim/allocsim/reports"
	"github.com/shoenig/test/must"
)

// shardFile is a fresh summary of shard sh of seeds.
func shardFile(t *testing.T, seeds Range, sh Shard, sel ...string) *summaryFile {
	t.Helper()
	slice, err := shardRange(seeds, sh)
	must.NoError(t, err)
	f := &summaryFile{Format: summaryFormat, Runner: "reference", Profile: "full", Seeds: seeds,
		Shard: &sh, ShardSeeds: &slice, Selection: selection(sel)}
	f.refresh()
	return f
}

func testReplay(id string, seed uint64) string { return fmt.Sprintf("replay %s %d", id, seed) }

func pass(id string, checks int) reports.Property {
	return reports.Property{ID: id, Status: reports.Pass, Checks: checks}
}

func fail(id string, seed uint64, checks int) reports.Property {
	return reports.Property{ID: id, Status: reports.Fail, Seed: seed, Checks: checks, Violation: "v of " + id}
}

// TestNextAndRecord walks a shard through its chunks: the first chunk
// checks the selection; a failed property is dropped from later chunks;
// n/a ones are never listed; when every property has checked every seed
// nothing is left.
func TestNextAndRecord(t *testing.T) {
	f := shardFile(t, Range{1, 20}, Shard{1, 2}) // seeds 1..10
	w, ok := f.next(1, 4)
	must.True(t, ok)
	must.Eq(t, work{Seeds: Range{1, 4}}, w, must.Sprint("nothing known: the selection"))
	fresh, err := f.record(w, []reports.Property{pass("A/a", 4), fail("B/b", 2, 2), {ID: "C/c", Status: reports.NotApplicable}}, testReplay)
	must.NoError(t, err)
	must.Eq(t, []failure{{Property: "B/b", Seed: 2, Shard: "1/2", Violation: "v of B/b", Replay: "replay B/b 2"}}, fresh)
	f.refresh()
	must.Eq(t, Set{{1, 4}}, f.Covered)
	must.Eq(t, Set{{5, 10}}, f.Gaps)

	w, ok = f.next(5, 4)
	must.True(t, ok)
	must.Eq(t, work{Seeds: Range{5, 8}, Properties: []string{"A/a"}}, w)
	_, err = f.record(w, []reports.Property{pass("A/a", 4)}, testReplay)
	must.NoError(t, err)
	w, ok = f.next(9, 4)
	must.True(t, ok)
	must.Eq(t, work{Seeds: Range{9, 10}, Properties: []string{"A/a"}}, w, must.Sprint("the last chunk is cut at the shard's end"))
	_, err = f.record(w, []reports.Property{pass("A/a", 2)}, testReplay)
	must.NoError(t, err)
	_, ok = f.next(1, 4)
	must.False(t, ok)

	f.refresh()
	must.Eq(t, Set{{1, 10}}, f.Covered)
	must.SliceEmpty(t, f.Gaps)
	must.Eq(t, totals{Seeds: 10, Covered: 10, Properties: 3, Passed: 1, Failed: 1, NA: 1, Failures: 1, Checks: 12, Chunks: 3}, f.Totals)
	must.Eq(t, []propertyState{
		{ID: "A/a", Status: statusPassed, Checked: Set{{1, 10}}, Checks: 10},
		{ID: "B/b", Status: statusFailed, Checked: Set{{1, 2}}, Stopped: Set{{1, 10}}, Checks: 2},
		{ID: "C/c", Status: statusNA},
	}, f.Properties)
}

// TestNextNarrows: the next chunk holds the lowest unchecked seed of any
// searched property, lists only the properties missing seeds there and
// spans only what they miss; the cursor skips chunks before it.
func TestNextNarrows(t *testing.T) {
	f := shardFile(t, Range{1, 100}, Shard{1, 1})
	f.property("A/a").Checked = Set{{1, 12}, {15, 100}}
	f.property("B/b").Checked = Set{{1, 11}, {14, 100}}
	f.property("C/c").Checked = Set{{1, 100}}
	f.refresh()
	w, ok := f.next(1, 10)
	must.True(t, ok)
	must.Eq(t, work{Seeds: Range{12, 14}, Properties: []string{"A/a", "B/b"}}, w)
	w, ok = f.next(14, 10)
	must.True(t, ok)
	must.Eq(t, work{Seeds: Range{14, 14}, Properties: []string{"A/a"}}, w, must.Sprint("from the cursor on"))
	_, ok = f.next(15, 10)
	must.False(t, ok)
	_, ok = f.next(101, 10)
	must.False(t, ok)
}

// TestRecordIncomplete: what a chunk leaves undone is an error, and only
// what ran counts: a truncated property's first checks, nothing of a
// suite error or a missing property; the chunk is not counted.
func TestRecordIncomplete(t *testing.T) {
	f := shardFile(t, Range{1, 10}, Shard{1, 1})
	w := work{Seeds: Range{1, 10}, Properties: []string{"A/a", "B/b", "C/c", "D/d"}}
	_, err := f.record(w, []reports.Property{
		{ID: "A/a", Status: reports.Pass, Checks: 3, Truncated: true},
		{ID: "B/b", Status: reports.Error, Message: "panic: boom"},
		pass("C/c", 7),
		pass("Z/z", 10), // not asked for: ignored
	}, testReplay)
	must.EqError(t, err, "A/a: the real-time budget cut seeds 1..10 short after 3 checks (use a smaller --chunk)\n"+
		"B/b: suite error: panic: boom\n"+
		"C/c: ran 7 checks for the 10 seeds 1..10 (does the allocsim source support -allocsim.seeds?)\n"+
		"D/d: not in the suite's results")
	f.refresh()
	must.Eq(t, Set{{1, 3}}, f.property("A/a").Checked)
	must.SliceEmpty(t, f.property("B/b").Checked)
	must.Eq(t, Set{{1, 7}}, f.property("C/c").Checked)
	must.EqOp(t, 0, f.Totals.Chunks)

	_, err = f.record(work{Seeds: Range{1, 10}, Properties: []string{"A/a"}}, []reports.Property{fail("A/a", 11, 11)}, testReplay)
	must.EqError(t, err, "A/a: failing seed 11 is outside the chunk's seeds 1..10")
	_, err = f.record(work{Seeds: Range{1, 10}}, nil, testReplay)
	must.EqError(t, err, "the suite reported no property")
}

// TestRefreshCoverage: a seed is covered when every applicable property
// checked it or stopped; nothing is covered before any property is known.
func TestRefreshCoverage(t *testing.T) {
	f := shardFile(t, Range{1, 10}, Shard{1, 1})
	must.SliceEmpty(t, f.Covered)
	must.Eq(t, Set{{1, 10}}, f.Gaps)
	f.property("A/a").Checked = Set{{1, 6}}
	f.property("B/b").Checked = Set{{3, 10}}
	f.property("N/a").Status = statusNA
	f.refresh()
	must.Eq(t, Set{{3, 6}}, f.Covered)
	must.Eq(t, Set{{1, 2}, {7, 10}}, f.Gaps)
	must.EqOp(t, 2, f.Totals.Searching)
}
