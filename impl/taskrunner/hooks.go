package taskrunner

import (
	"context"
	"fmt"
	"maps"

	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// buildHooks returns the task hooks in their one documented order (AR-5):
//
//	validate  prestart, Done on success
//	task_dir  prestart: builds the task dir (Task Setup once)
//	volumes   prestart: checks the CSI mounts (HOOKRES-3)
//	pause     update and stop: the pause gate's schedule and end (PAUSE-7)
//
// Each kind runs its hooks sequentially in this order. The pause hook is
// registered for every task: it is inert while the task has no schedule,
// and an update that adds one starts tracking (PAUSE-7).
func (tr *TaskRunner) buildHooks() []interfaces.TaskHook {
	return []interfaces.TaskHook{
		validateHook{},
		&taskDirHook{dir: tr.taskDir, events: tr, clock: tr.clock},
		&volumesHook{resources: tr.cfg.HookResources, group: tr.taskGroup},
		&pauseHook{gate: tr.gate, task: tr.taskName},
	}
}

// fmtPrestartFailed is AR-5's recoverable start error, SPEC text.
const fmtPrestartFailed = "prestart hook %q failed: %w"

// runPrestartHook runs one prestart hook; a panic in it is its error
// (`panic: <value>`), so a hook that dereferences nil fails its task's
// start like any hook error (AR-5, recoverable) instead of crashing the
// client, and the suite's HOOKRES-4 property can name it.
func runPrestartHook(h interfaces.TaskPrestartHook, ctx context.Context, req *interfaces.TaskPrestartRequest,
	resp *interfaces.TaskPrestartResponse) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf(structs.FmtHookPanic, r)
		}
	}()
	return h.Prestart(ctx, req, resp)
}

// taskGroup returns the task's group in the latest alloc.
func (tr *TaskRunner) taskGroup() *structs.TaskGroup { return tr.Alloc().LookupTaskGroup() }

// prestart runs the prestart hooks (AR-5, STATE-4) and returns the task's
// environment. A hook marked PrestartDone is skipped (no telemetry) and its
// Env re-applied; every other run is timed once (TELEM-3). A hook failure
// appends `Task hook failed` and returns the recoverable start error; a
// failure to persist a changed hook state is unrecoverable (STATE-2).
func (tr *TaskRunner) prestart() (map[string]string, error) {
	env := map[string]string{}
	task := tr.Task()
	for _, h := range tr.hooks {
		pre, ok := h.(interfaces.TaskPrestartHook)
		if !ok {
			continue
		}
		name := pre.Name()
		tr.stateMu.Lock()
		prev := tr.localState.Hooks[name] // never changed (editLocalState): read only
		tr.stateMu.Unlock()
		if prev != nil && prev.PrestartDone {
			tr.cfg.HookStats.Skipped(name, hookstats.HookTypePrestart)
			maps.Copy(env, prev.Env)
			continue
		}
		req := &interfaces.TaskPrestartRequest{Task: task, Env: maps.Clone(env)}
		if prev != nil {
			req.PreviousData = maps.Clone(prev.Data)
		}
		var resp interfaces.TaskPrestartResponse
		start := tr.clock.Now()
		err := runPrestartHook(pre, tr.hookCtx, req, &resp)
		tr.cfg.HookStats.Emit(start, name, hookstats.HookTypePrestart, err)
		if err != nil {
			tr.AppendEvent(tr.newEvent(structs.TaskHookFailed).
				SetMessage(fmt.Sprintf(structs.FmtHookFailedMessage, name, err)))
			return nil, drivers.NewRecoverableError(fmt.Errorf(fmtPrestartFailed, name, err), true)
		}
		maps.Copy(env, resp.Env)
		next := &interfaces.HookState{PrestartDone: resp.Done, Data: maps.Clone(resp.Data), Env: maps.Clone(resp.Env)}
		if next.Equal(prev) {
			continue
		}
		tr.editLocalState(func(ls *interfaces.LocalState) { ls.Hooks[name] = next })
		if err := tr.persistLocalState(); err != nil {
			return nil, drivers.NewRecoverableError(fmt.Errorf("failed to persist local state of hook %q: %w", name, err), false)
		}
	}
	return env, nil
}

// poststart runs the poststart hooks; errors are logged (AR-5).
func (tr *TaskRunner) poststart() {
	for _, h := range tr.hooks {
		if post, ok := h.(interfaces.TaskPoststartHook); ok {
			if err := post.Poststart(tr.hookCtx); err != nil {
				tr.logger.Error("poststart hook failed", "hook", post.Name(), "error", err)
			}
		}
	}
}

// preKill runs the prekill hooks, before a kill or a pause stop (AR-5).
func (tr *TaskRunner) preKill() {
	for _, h := range tr.hooks {
		if pk, ok := h.(interfaces.TaskPreKillHook); ok {
			pk.PreKill()
		}
	}
}

// exited runs the exited hooks after each exit; errors are logged.
func (tr *TaskRunner) exited() {
	for _, h := range tr.hooks {
		if ex, ok := h.(interfaces.TaskExitedHook); ok {
			if err := ex.Exited(tr.hookCtx); err != nil {
				tr.logger.Error("exited hook failed", "hook", ex.Name(), "error", err)
			}
		}
	}
}

// runUpdateHooks passes an alloc update to the update hooks; errors are
// logged.
func (tr *TaskRunner) runUpdateHooks(alloc *structs.Allocation) {
	for _, h := range tr.hooks {
		if up, ok := h.(interfaces.TaskUpdateHook); ok {
			if err := up.Update(context.Background(), alloc); err != nil {
				tr.logger.Error("update hook failed", "hook", up.Name(), "error", err)
			}
		}
	}
}

// runStopHooks runs the stop hooks, once for the runner's life (AR-5).
func (tr *TaskRunner) runStopHooks() {
	if !tr.stopped.CompareAndSwap(false, true) {
		return
	}
	for _, h := range tr.hooks {
		if st, ok := h.(interfaces.TaskStopHook); ok {
			if err := st.Stop(context.Background()); err != nil {
				tr.logger.Error("stop hook failed", "hook", st.Name(), "error", err)
			}
		}
	}
}
