package taskrunner

import (
	"context"
	"fmt"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/telemetry"
)

// volumesHook checks that every CSI volume the task mounts has a mount
// point in the alloc's hook resources (HOOKRES-3). It reads the map once
// per run; a missing entry is a recoverable prestart failure, never a
// crash.
type volumesHook struct {
	resources CSIMounts
	group     func() *structs.TaskGroup
}

var _ interfaces.TaskPrestartHook = (*volumesHook)(nil)

func (*volumesHook) Name() string { return telemetry.HookVolumes }

func (h *volumesHook) Prestart(_ context.Context, req *interfaces.TaskPrestartRequest, _ *interfaces.TaskPrestartResponse) error {
	aliases := h.group().TaskCSIAliases(req.Task) // sorted (HOOKRES-3, DET-2)
	if len(aliases) == 0 {
		return nil
	}
	mounts := h.resources.GetCSIMounts() // once (HOOKRES-3)
	for _, alias := range aliases {
		if _, ok := mounts[alias]; !ok {
			return fmt.Errorf(structs.FmtNoCSIMount, alias)
		}
	}
	return nil
}
