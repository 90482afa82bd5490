package allocrunner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"

	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/telemetry"
)

// csiHook mounts the group's CSI volumes before the tasks and unmounts
// them after (AR-4, HOOKRES-2):
//
//  1. Prerun takes the volumes to mount: the persisted stubs if Restore
//     loaded any (STATE-4, mounts restore without the server), else every
//     group volume of type csi.
//  2. It mounts them through the CSI manager in alias order (DET-2) and
//     builds the complete alias -> mount point map.
//  3. Only when all mounts succeeded it sets the map on the hook resources,
//     once (never a partial map; on error nothing is set), and persists
//     the stubs with their mount info (alloc_volume).
//  4. Postrun unmounts, in alias order, every volume this process
//     mounted; errors are aggregated.
type csiHook struct {
	allocID string
	alloc   func() *structs.Allocation
	mgr     interfaces.CSIManager
	res     *hookres.HookResources
	db      interfaces.StateDB
	logger  *slog.Logger

	mu       sync.Mutex
	restored map[string]*interfaces.CSIVolumeStub
	mounted  map[string]*structs.VolumeRequest
}

var (
	_ interfaces.RunnerPrerunHook  = (*csiHook)(nil)
	_ interfaces.RunnerPostrunHook = (*csiHook)(nil)
)

func newCSIHook(allocID string, alloc func() *structs.Allocation, mgr interfaces.CSIManager,
	res *hookres.HookResources, db interfaces.StateDB, logger *slog.Logger) *csiHook {
	return &csiHook{
		allocID: allocID, alloc: alloc, mgr: mgr, res: res, db: db, logger: logger,
		mounted: map[string]*structs.VolumeRequest{},
	}
}

func (h *csiHook) Name() string { return telemetry.HookCSI }

// restore adopts persisted stubs (Restore, STATE-3).
func (h *csiHook) restore(v *interfaces.AllocVolumes) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.restored = nil
	if v != nil && len(v.CSIVolumes) > 0 {
		h.restored = v.Copy().CSIVolumes
	}
}

// volumes returns the requests to mount and their stubs, by alias.
func (h *csiHook) volumes() (map[string]*structs.VolumeRequest, map[string]*interfaces.CSIVolumeStub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	reqs := map[string]*structs.VolumeRequest{}
	stubs := map[string]*interfaces.CSIVolumeStub{}
	if len(h.restored) > 0 {
		for alias, s := range h.restored {
			if s == nil {
				continue
			}
			reqs[alias] = &structs.VolumeRequest{
				Name: s.VolumeName, Type: structs.VolumeTypeCSI, Source: s.VolumeID, ReadOnly: s.ReadOnly,
			}
			stubs[alias] = s.Copy()
		}
		return reqs, stubs
	}
	tg := h.alloc().LookupTaskGroup()
	if tg == nil {
		return reqs, stubs
	}
	for alias, v := range tg.Volumes {
		if v == nil || v.Type != structs.VolumeTypeCSI {
			continue
		}
		req := *v
		reqs[alias] = &req
		stubs[alias] = &interfaces.CSIVolumeStub{VolumeID: v.Source, VolumeName: v.Name, ReadOnly: v.ReadOnly}
	}
	return reqs, stubs
}

func (h *csiHook) Prerun(ctx context.Context) error {
	reqs, stubs := h.volumes()
	if len(reqs) == 0 {
		return nil
	}
	mounts := make(map[string]*interfaces.CSIMountPoint, len(reqs))
	for _, alias := range slices.Sorted(maps.Keys(reqs)) {
		if h.mgr == nil {
			return fmt.Errorf("no CSI manager to mount volume %q", alias)
		}
		mp, err := h.mgr.MountVolume(ctx, h.allocID, alias, reqs[alias])
		if err != nil {
			return fmt.Errorf("failed to mount CSI volume %q: %w", alias, err)
		}
		h.markMounted(alias, reqs[alias])
		if mp == nil {
			return fmt.Errorf("CSI volume %q mounted without a mount point", alias)
		}
		mounts[alias] = &interfaces.CSIMountPoint{Source: mp.Source, IsDevice: mp.IsDevice}
		stubs[alias].MountInfo = &interfaces.CSIMountPoint{Source: mp.Source, IsDevice: mp.IsDevice}
	}
	h.res.SetCSIMounts(mounts) // HOOKRES-2: the complete map, set once
	if err := h.db.PutAllocVolumes(h.allocID, &interfaces.AllocVolumes{CSIVolumes: stubs}); err != nil {
		h.logger.Error("failed to persist CSI volume stubs", "error", err)
	}
	return nil
}

func (h *csiHook) markMounted(alias string, req *structs.VolumeRequest) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.mounted[alias] = req
}

func (h *csiHook) Postrun() error {
	h.mu.Lock()
	mounted := h.mounted
	h.mounted = map[string]*structs.VolumeRequest{}
	h.mu.Unlock()
	var errs []error
	for _, alias := range slices.Sorted(maps.Keys(mounted)) {
		if err := h.mgr.UnmountVolume(context.Background(), h.allocID, alias, mounted[alias]); err != nil {
			errs = append(errs, fmt.Errorf("failed to unmount CSI volume %q: %w", alias, err))
		}
	}
	return errors.Join(errs...)
}
