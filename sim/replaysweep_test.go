package sim

import (
	"bytes"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/shoenig/test/must"
)

var replayDirs = flag.String("replay.dirs", "",
	"TestReplayDirs: comma-separated directories of traces TestReplay wrote with -trace.dir, one per GOMAXPROCS setting (make replay-sweep)")

// replayDirsReported is how many differences TestReplayDirs describes
// line by line; the rest are only counted.
const replayDirsReported = 20

// TestReplayDirs is the comparison of `make replay-sweep` (DET-4 under
// parallelism): given the trace directories TestReplay wrote
// (-trace.dir, <runner>-<seed>-<run>.jsonl) at different GOMAXPROCS
// settings, every directory must hold the same traces, every run of a
// seed must be byte-identical to its first run within a directory, and
// every trace byte-identical to the same trace in the first directory.
// It reports every difference (the first ones with their first differing
// line) and logs the counts. Skipped without -replay.dirs.
func TestReplayDirs(t *testing.T) {
	if *replayDirs == "" {
		t.Skip("no -replay.dirs: run by make replay-sweep")
	}
	dirs := strings.Split(*replayDirs, ",")
	sets := make([]map[string]bool, len(dirs))
	all := map[string]bool{}
	for i, dir := range dirs {
		entries, err := os.ReadDir(dir)
		must.NoError(t, err)
		sets[i] = map[string]bool{}
		for _, e := range entries {
			if name := e.Name(); !e.IsDir() && strings.HasSuffix(name, ".jsonl") {
				sets[i][name] = true
				all[name] = true
			}
		}
	}
	names := slices.Sorted(maps.Keys(all))
	must.Positive(t, len(names), must.Sprintf("no traces in %s", *replayDirs))

	reported := 0
	report := func(format string, args ...any) {
		t.Helper()
		if reported++; reported <= replayDirsReported {
			t.Errorf(format, args...)
		}
	}
	read := func(dir, name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		must.NoError(t, err)
		return b
	}
	var within, across, missing int
	for i, dir := range dirs {
		for _, name := range names {
			if !sets[i][name] {
				missing++
				report("%s: no trace %s (its run failed, or TestReplay stopped before it)", dir, name)
				continue
			}
			got := read(dir, name)
			if first, ok := firstRunOf(name); ok && sets[i][first] {
				if d := diffTraces(read(dir, first), got); d != nil {
					within++
					report("%s: %s differs from %s at line %d:\n  run 1: %s\n  this:  %s",
						dir, name, first, d.Line, orEnd(d.First), orEnd(d.Other))
				}
			}
			if i > 0 && sets[0][name] {
				if want := read(dirs[0], name); !bytes.Equal(want, got) {
					across++
					d := diffTraces(want, got)
					report("%s differs between %s and %s at line %d:\n  %s: %s\n  %s: %s",
						name, dirs[0], dir, d.Line, filepath.Base(dirs[0]), orEnd(d.First), filepath.Base(dir), orEnd(d.Other))
				}
			}
		}
	}
	if reported > replayDirsReported {
		t.Errorf("... and %d more differences", reported-replayDirsReported)
	}
	t.Logf("%d traces in each of %d settings (%s): %d differ from their seed's first run, %d from the first setting's, %d missing",
		len(names), len(dirs), *replayDirs, within, across, missing)
}

// firstRunOf names the first run's trace of the run trace name
// (<runner>-<seed>-<run>.jsonl); false for a first run or another name.
func firstRunOf(name string) (string, bool) {
	base, ok := strings.CutSuffix(name, ".jsonl")
	i := strings.LastIndexByte(base, '-')
	if !ok || i < 0 {
		return "", false
	}
	if run, err := strconv.Atoi(base[i+1:]); err != nil || run <= 1 {
		return "", false
	}
	return base[:i] + "-1.jsonl", true
}
