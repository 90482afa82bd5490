package allocrunner

import (
	"io/fs"
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/impl/taskrunner"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

// TestRestore_AllocDirMissing_STATE3: Restore needs the alloc dir.
func TestRestore_AllocDirMissing_STATE3(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		ar := h.build()
		err := ar.Restore()
		must.ErrorIs(t, err, fs.ErrNotExist)
		must.StrHasPrefix(t, "allocation directory is inaccessible: ", err.Error())
		h.finish()
	})
}

// TestRestore_STATE3: the acknowledged state is loaded, every task runner
// restores (errors joined by task), the CSI stubs are re-mounted by
// prerun and the complete map set (STATE-4).
func TestRestore_STATE3(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, withCSI(testAlloc(mainTask("web"), mainTask("api"), mainTask("db")), "data", "logs"))
		must.NoError(t, h.db.PutAcknowledgedState("a1", &structs.AllocState{ClientStatus: structs.AllocClientStatusRunning}))
		must.NoError(t, h.db.PutAllocVolumes("a1", &interfaces.AllocVolumes{CSIVolumes: map[string]*interfaces.CSIVolumeStub{
			"data": {VolumeID: "restored-src", VolumeName: "restored", ReadOnly: true},
		}}))
		h.setup = func(tr *fakeTR) {
			switch tr.name() {
			case "api":
				tr.restoreErr = errBoom
			case "db":
				tr.restoreErr = errHook
				tr.restoreSet = &structs.TaskState{State: structs.TaskStateRunning, StartedAt: t0}
			}
		}
		ar := h.build()
		must.NoError(t, ar.GetAllocDir().Build())
		err := ar.Restore()
		must.EqError(t, err, "failed to restore task \"api\": boom\nfailed to restore task \"db\": hook failed")
		must.Eq(t, syncpolicy.Urgent, ar.GetUpdatePriority(&structs.Allocation{ClientStatus: structs.AllocClientStatusPending}))
		must.Eq(t, syncpolicy.None, ar.GetUpdatePriority(&structs.Allocation{ClientStatus: structs.AllocClientStatusRunning}))

		go ar.Run()
		synctest.Wait()
		must.Eq(t, []string{"data"}, h.csi.mounted, must.Sprint("from the stubs only"))
		must.Eq(t, &structs.VolumeRequest{Name: "restored", Type: structs.VolumeTypeCSI, Source: "restored-src", ReadOnly: true}, h.csi.reqs["data"])
		must.Eq(t, map[string]*interfaces.CSIMountPoint{"data": {Source: "/csi/a1/restored-src"}}, ar.hookResources.GetCSIMounts())
		h.finish()
	})
}

// TestRestore_CorruptEntries_STATE3: undecodable alloc-level entries
// fail Restore, joined with the other steps' errors; the task runners
// still restore.
func TestRestore_CorruptEntries_STATE3(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		must.NoError(t, h.db.PutRaw("a1", "", state.KeyAllocVolume, []byte("{")))
		must.NoError(t, h.db.PutRaw("a1", "", state.KeyAcknowledgedState, []byte("[")))
		h.setup = func(tr *fakeTR) { tr.restoreSet = &structs.TaskState{State: structs.TaskStateRunning, StartedAt: t0} }
		ar := h.build()
		err := ar.Restore()
		must.ErrorIs(t, err, fs.ErrNotExist)
		must.ErrorIs(t, err, state.ErrCorrupt)
		must.StrContains(t, err.Error(), "failed to load CSI volume stubs of alloc a1: ")
		must.StrContains(t, err.Error(), "failed to load acknowledged state of alloc a1: ")
		must.Eq(t, structs.TaskStateRunning, h.trs["web"].TaskState().State)
		h.finish()
	})
}

// TestRestore_FailedAlloc_AR4: a restored alloc whose computed status is
// failed reruns no prerun, but its task runners run and the kill rules
// apply to the restored states once they are launched.
func TestRestore_FailedAlloc_AR4(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, withCSI(testAlloc(mainTask("web"), mainTask("api"), mainTask("db")), "data"))
		h.setup = func(tr *fakeTR) {
			if tr.name() == "db" {
				tr.restoreSet = &structs.TaskState{State: structs.TaskStateDead, Failed: true, StartedAt: t0, FinishedAt: t0}
			}
		}
		ar := h.build()
		must.NoError(t, ar.GetAllocDir().Build())
		must.NoError(t, ar.Restore())
		go ar.Run()
		synctest.Wait()
		must.SliceEmpty(t, h.csi.mounted)
		must.SliceEmpty(t, h.metricLines())
		must.SliceNotContains(t, h.log.get(), "start:api", must.Sprint("no gate opens for a task the restored state kills"))
		must.SliceNotContains(t, h.log.get(), "start:web")
		for _, name := range []string{"api", "web"} {
			ev := h.lastEvent(name, structs.TaskSiblingFailed)
			must.NotNil(t, ev)
			must.Eq(t, "db", ev.FailedSibling)
		}
		must.Eq(t, map[string]string{"api": "dead", "web": "dead", "db": "dead+failed"}, h.states())
		h.finish()
	})
}

// TestNewAllocRunner_Config_AR2: missing configuration is reported, all at
// once.
func TestNewAllocRunner_Config_AR2(t *testing.T) {
	_, err := NewAllocRunner(nil)
	must.EqError(t, err, "alloc runner config is nil")

	_, err = NewAllocRunner(&interfaces.Config{ClientConfig: &interfaces.ClientConfig{}})
	must.EqError(t, err, "alloc runner config has no Alloc\nalloc runner config has no Clock\nalloc runner config has no Rand\n"+
		"alloc runner config has no StateDB\nalloc runner config has no StateUpdater\nalloc runner config has no AllocDirFactory\n"+
		"alloc runner config has no Metrics")

	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		h.cfg.Alloc.TaskGroup = "other"
		_, err := NewAllocRunner(h.cfg)
		must.EqError(t, err, `alloc a1 has no task group "other" in its job`)
	})
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		_, err := newAllocRunner(h.cfg, Policies{NewTaskRunner: func(*taskrunner.Config) (TaskRunner, error) { return nil, errBoom }})
		must.EqError(t, err, `failed to build task runner "web": boom`)
	})
}

// TestNewAllocRunner_Real: the exported constructor wires the reference
// task runner (whatever its state of completion) through the same path.
func TestNewAllocRunner_Real(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		ar, err := NewAllocRunner(h.cfg)
		if err != nil {
			must.StrContains(t, err.Error(), `failed to build task runner "web"`)
			return
		}
		must.NotNil(t, ar)
		ar.Destroy()
		h.advanceUntil(ar.DestroyCh())
	})
}

// TestRandPerTask_DET1: each task runner's source is derived from the
// runner's seed in task-name order, whatever the group's order.
func TestRandPerTask_DET1(t *testing.T) {
	draw := func(tasks ...*structs.Task) map[string]uint64 {
		out := map[string]uint64{}
		synctest.Test(t, func(t *testing.T) {
			h := newHarness(t, testAlloc(tasks...))
			h.cfg.Rand = rand.New(rand.NewPCG(7, 7))
			h.build()
			for name, tr := range h.trs {
				out[name] = tr.cfg.Rand.Uint64()
			}
			h.finish()
		})
		return out
	}
	a := draw(mainTask("b"), mainTask("a"), mainTask("c"))
	b := draw(mainTask("c"), mainTask("b"), mainTask("a"))
	must.Eq(t, a, b)
	must.NotEq(t, a["a"], a["b"])
}

// TestPersistState_STATE2: PersistState writes the computed alloc; a
// write error is returned wrapped.
func TestPersistState_STATE2(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(mainTask("web")))
		fail := false
		h.db = state.NewMemDB(state.MemConfig{FaultHook: func(w state.Write) error {
			if fail && w.Key == state.KeyAlloc {
				return errBoom
			}
			return nil
		}})
		h.cfg.StateDB = h.db
		ar := h.start()
		must.NoError(t, ar.PersistState())
		allocs, _, err := h.db.GetAllAllocations()
		must.NoError(t, err)
		must.Eq(t, structs.AllocClientStatusRunning, allocs[0].ClientStatus)
		fail = true
		must.ErrorIs(t, ar.PersistState(), errBoom)
		ar.AcknowledgeState(&structs.AllocState{}) // logged, not fatal
		h.advance(time.Second)
		h.finish()
	})
}
