package taskrunner

import (
	"context"
	"fmt"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/telemetry"
	"github.com/benbjohnson/clock"
)

// taskDirDataDone is the task_dir hook's Data key (AR-5).
const taskDirDataDone = "is_done"

// eventEmitter is the narrow part of the runner a hook appends events
// through.
type eventEmitter interface {
	AppendEvent(ev *structs.TaskEvent)
}

// taskDirHook builds the task's directory (AR-5). The first build appends
// `Task Setup` (Message `Building Task Directory`) and stores is_done=true
// in its Data; later passes, restores included, find that Data and only
// re-ensure the directories (the secrets dir among them), silently.
type taskDirHook struct {
	dir    *interfaces.TaskDir
	events eventEmitter
	clock  clock.Clock
}

var _ interfaces.TaskPrestartHook = (*taskDirHook)(nil)

func (*taskDirHook) Name() string { return telemetry.HookTaskDir }

func (h *taskDirHook) Prestart(_ context.Context, req *interfaces.TaskPrestartRequest, resp *interfaces.TaskPrestartResponse) error {
	if req.PreviousData[taskDirDataDone] == "true" {
		// TaskDir.Build is idempotent: it re-creates a missing secrets dir
		// and leaves existing directories alone.
		if err := h.dir.Build(); err != nil {
			return fmt.Errorf("failed to ensure the secrets directory of %q: %w", h.dir.Name, err)
		}
	} else {
		h.events.AppendEvent(structs.NewTaskEvent(structs.TaskSetup, h.clock.Now()).
			SetMessage(structs.MsgTaskSetupBuildingDir))
		if err := h.dir.Build(); err != nil {
			return fmt.Errorf("failed to build the task directory of %q: %w", h.dir.Name, err)
		}
	}
	resp.Data = map[string]string{taskDirDataDone: "true"}
	resp.Env = map[string]string{
		"NOMAD_ALLOC_DIR":   h.dir.SharedAllocDir,
		"NOMAD_TASK_DIR":    h.dir.LocalDir,
		"NOMAD_SECRETS_DIR": h.dir.SecretsDir,
	}
	return nil
}
