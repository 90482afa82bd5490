package sim

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/shoenig/test/must"
)

// runFixture runs a fixture scenario with f and returns the world and its
// trace.
func runFixture(t *testing.T, name string, f interfaces.Factory) (*World, []byte) {
	t.Helper()
	sc, err := scenario.Load(filepath.Join("..", "fixtures", "scenarios", name+".json"))
	must.NoError(t, err)
	var w *World
	var out []byte
	Test(t, WatchConfig{}, func(t *testing.T) {
		w, err = Run(Config{Scenario: sc, Factory: f})
		must.NoError(t, err)
		out = traceBytes(t, w)
	})
	return w, out
}

// TestFixtureScenarios: each fixture runs without violation and replays
// exactly with both runners (DET-4).
func TestFixtureScenarios(t *testing.T) {
	for _, name := range []string{"pause_window", "crash_restore", "partition_sync"} {
		for _, f := range []interfaces.Factory{minimalFactory(), referenceFactory()} {
			t.Run(name+"/"+f.Name, func(t *testing.T) {
				_, a := runFixture(t, name, f)
				_, b := runFixture(t, name, f)
				if !bytes.Equal(a, b) {
					t.Fatalf("DET-4: %s", firstDiff(a, b))
				}
			})
		}
	}
}

// events lists "<task> <event type> [<display>]" of the trace's task
// events of one alloc.
func events(w *World, alloc string) []string {
	var out []string
	for _, r := range w.Trace().Records() {
		if r.Kind == trace.KindTaskEvent && r.Alloc == alloc {
			out = append(out, r.Task+" "+r.Msg)
		}
	}
	return out
}

// TestPauseWindowFixture: the reference runner follows the schedule and
// the overrides the fixture's calls make (PAUSE-2..4, API-7).
func TestPauseWindowFixture(t *testing.T) {
	w, _ := runFixture(t, "pause_window", referenceFactory())
	alloc := w.Server().AllocByName("batch-window.g1[0]")
	var worker []string
	for _, r := range w.Trace().Records() {
		if r.Kind == trace.KindTaskEvent && r.Alloc == alloc.ID && r.Task == "worker" &&
			(r.Msg == "Pausing" || r.Msg == "Running" || r.Msg == "Started") {
			worker = append(worker, r.At.Format("15:04:05")+" "+r.Msg)
		}
	}
	must.Eq(t, []string{
		"08:55:00 Pausing", // outside the 09:00-09:10 UTC window
		"09:00:00 Running",
		"09:00:00 Started",
		"09:02:00 Pausing", // force_pause
		"09:04:00 Running", // schedule_resume inside the window
		"09:04:00 Started",
		"09:10:00 Pausing", // window end
	}, worker)
	var api []string
	for _, r := range w.Trace().Records() {
		if r.Kind == trace.KindAPI {
			api = append(api, r.Op+" "+r.Msg+" "+string(r.Data))
		}
	}
	must.Eq(t, []string{`pause ok {}`, `get_pause ok {"state":"force_pause"}`, `resume ok {}`, `signal ok {}`}, api)
}

// TestCrashRestoreFixture: after the crash the restarted client recovers
// both running tasks (no second Started, STATE-4) and re-mounts the CSI
// volume (csi_hook reruns its prerun).
func TestCrashRestoreFixture(t *testing.T) {
	w, _ := runFixture(t, "crash_restore", referenceFactory())
	alloc := w.Server().AllocByName("db.g1[0]")
	var started, recovered, mounts int
	for _, r := range w.Trace().Records() {
		switch {
		case r.Kind == trace.KindTaskEvent && r.Alloc == alloc.ID && r.Msg == "Started":
			started++
		case r.Kind == trace.KindDriver && r.Op == "RecoverTask" && r.Msg == "ok":
			recovered++
		case r.Kind == trace.KindCSI && r.Op == "MountVolume:data" && r.Msg == "return":
			mounts++
		}
	}
	must.EqOp(t, 2, started, must.Sprint(events(w, alloc.ID)))
	must.EqOp(t, 2, recovered)
	must.EqOp(t, 2, mounts)
	must.EqOp(t, "running", w.Server().Alloc(alloc.ID).ClientStatus)
}

// TestPartitionSyncFixture: after the partition heals the server's stored
// state of every alloc converges to the client's latest (SYNC-5.3), and
// the server never received an older state after a newer one (SYNC-5.4).
func TestPartitionSyncFixture(t *testing.T) {
	w, _ := runFixture(t, "partition_sync", referenceFactory())
	last := map[string]string{}
	for _, r := range w.Trace().Records() {
		if r.Kind == trace.KindAlloc {
			last[r.Alloc] = r.Msg
		}
	}
	must.MapLen(t, 3, last)
	for id, status := range last {
		must.EqOp(t, status, w.Server().Alloc(id).ClientStatus, must.Sprint(id))
		h := w.Server().History(id, 0)
		for i := 1; i < len(h); i++ {
			must.False(t, h[i].At.Before(h[i-1].At))
			for name, ts := range h[i].State.TaskStates {
				prev := h[i-1].State.TaskStates[name]
				if prev != nil {
					must.GreaterEq(t, len(prev.Events)-1, len(ts.Events)-1)
				}
			}
		}
	}
}
