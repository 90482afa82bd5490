package taskrunner

import (
	"context"
	"errors"
	"fmt"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/telemetry"
)

// validateHook checks the task definition once before its first start; it
// is Done on success, so restarts and restores skip it (AR-5, STATE-4).
type validateHook struct{}

var _ interfaces.TaskPrestartHook = validateHook{}

func (validateHook) Name() string { return telemetry.HookValidate }

func (validateHook) Prestart(_ context.Context, req *interfaces.TaskPrestartRequest, resp *interfaces.TaskPrestartResponse) error {
	if err := validateTask(req.Task); err != nil {
		return err
	}
	resp.Done = true
	return nil
}

// validateTask returns the first problem of a task the runner cannot run.
func validateTask(t *structs.Task) error {
	switch {
	case t == nil || t.Name == "":
		return errors.New("task has no name")
	case t.Driver == "":
		return fmt.Errorf("task %q has no driver", t.Name)
	case t.KillTimeout < 0:
		return fmt.Errorf("task %q has a negative kill timeout %v", t.Name, t.KillTimeout)
	}
	return nil
}
