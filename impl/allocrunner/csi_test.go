package allocrunner

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
)

// TestCSIHook_SetOnceComplete_HOOKRES2: while mounting, readers see the
// empty map (never a partial one); after, the complete map; the stubs are
// persisted with their mount info; non-CSI volumes are ignored.
func TestCSIHook_SetOnceComplete_HOOKRES2(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, withCSI(testAlloc(mainTask("web")), "c", "a", "b"))
		var seen []int
		h.csi.onMount = func(string) { seen = append(seen, len(h.ar.hookResources.GetCSIMounts())) }
		ar := h.start()
		must.Eq(t, []string{"a", "b", "c"}, h.csi.mounted, must.Sprint("alias order"))
		must.Eq(t, []int{0, 0, 0}, seen)
		must.Eq(t, map[string]*interfaces.CSIMountPoint{
			"a": {Source: "/csi/a1/src-a"}, "b": {Source: "/csi/a1/src-b"}, "c": {Source: "/csi/a1/src-c"},
		}, ar.hookResources.GetCSIMounts())
		vols, err := h.db.GetAllocVolumes("a1")
		must.NoError(t, err)
		must.Eq(t, &interfaces.CSIVolumeStub{VolumeID: "src-b", VolumeName: "vol-b", MountInfo: &interfaces.CSIMountPoint{Source: "/csi/a1/src-b"}}, vols.CSIVolumes["b"])
		must.MapLen(t, 3, vols.CSIVolumes)
		h.finish()
		must.Eq(t, []string{"a", "b", "c"}, h.csi.unmounted)
	})
}

// TestCSIHook_Unit: the hook on its own, without CSI volumes, without a
// manager, with a manager returning no mount point.
func TestCSIHook_Unit(t *testing.T) {
	db := state.NewMemDB(state.MemConfig{})
	alloc := withCSI(testAlloc(mainTask("web")), "data")
	noCSI := testAlloc(mainTask("web"))
	cases := []struct {
		name    string
		alloc   *structs.Allocation
		mgr     *fakeCSI
		nilMgr  bool
		wantErr string
	}{
		{name: "no csi volumes", alloc: noCSI, mgr: &fakeCSI{}},
		{name: "no manager", alloc: alloc, nilMgr: true, wantErr: `no CSI manager to mount volume "data"`},
		{name: "mount fails", alloc: alloc, mgr: &fakeCSI{fail: map[string]error{"data": errBoom}}, wantErr: `failed to mount CSI volume "data": boom`},
		{name: "ok", alloc: alloc, mgr: &fakeCSI{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := hookres.New()
			var h *csiHook
			if tc.nilMgr {
				h = newCSIHook("a1", func() *structs.Allocation { return tc.alloc }, nil, res, db, discard())
			} else {
				h = newCSIHook("a1", func() *structs.Allocation { return tc.alloc }, tc.mgr, res, db, discard())
			}
			err := h.Prerun(context.Background())
			if tc.wantErr != "" {
				must.EqError(t, err, tc.wantErr)
				must.MapEmpty(t, res.GetCSIMounts())
				return
			}
			must.NoError(t, err)
			must.MapLen(t, len(tc.mgr.mounted), res.GetCSIMounts())
			must.NoError(t, h.Postrun())
			must.Eq(t, tc.mgr.mounted, tc.mgr.unmounted)
		})
	}
}

// nilMountCSI returns no mount point and no error.
type nilMountCSI struct{ fakeCSI }

func (*nilMountCSI) MountVolume(context.Context, string, string, *structs.VolumeRequest) (*interfaces.CSIMountPoint, error) {
	return nil, nil
}

func TestCSIHook_NilMountPoint(t *testing.T) {
	alloc := withCSI(testAlloc(mainTask("web")), "data")
	mgr := &nilMountCSI{}
	res := hookres.New()
	h := newCSIHook("a1", func() *structs.Allocation { return alloc }, mgr, res, state.NewMemDB(state.MemConfig{}), discard())
	must.EqError(t, h.Prerun(context.Background()), `CSI volume "data" mounted without a mount point`)
	must.MapEmpty(t, res.GetCSIMounts())
	must.NoError(t, h.Postrun())
	must.Eq(t, []string{"data"}, mgr.unmounted, must.Sprint("a volume the manager may hold is unmounted"))
}
