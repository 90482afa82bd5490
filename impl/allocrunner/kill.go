package allocrunner

import (
	"context"
	"slices"
	"sync"

	"github.com/allocsim/allocsim/model/structs"
)

// startKill runs killTasks in a background goroutine that Run waits for.
// It does nothing once Run stopped accepting kill procedures.
func (ar *allocRunner) startKill(why string) {
	ok := ar.life.addKiller(func() { ar.killers.Add(1) })
	if !ok {
		return
	}
	go func() {
		defer ar.killers.Done()
		ar.killTasks(why)
	}()
}

// killTasks is the kill procedure of AR-9, used by the kill rules, the
// all-tasks-finished step, a server stop (AR-10) and Destroy:
//
//  1. record the kill and cancel a prerun in progress, then wait until Run
//     decided about launching the task runners (nothing to kill if it did
//     not: a shutdown came first);
//  2. run the alloc prekill hooks;
//  3. kill the tasks phase by phase (Policies.KillOrder), the tasks of a
//     phase concurrently, waiting for them: the leader, then the other
//     non-sidecar, non-poststop tasks, then the sidecars;
//  4. poststop tasks are untouched, unless the setup never completed (no
//     start gate will ever open for them): then they are killed last.
//
// Each unfinished (not dead) task gets Killing with its capped
// KillTimeout; a dead task is killed without an event, which ends its
// wait for an alloc restart (AR-6). Kills are serialised, so two kill
// procedures never interleave their events (DET-3).
func (ar *allocRunner) killTasks(why string) {
	ar.life.requestKill()
	ar.hookCancel()
	if !ar.life.waitLaunch() {
		return
	}
	ar.killSem <- struct{}{}
	defer func() { <-ar.killSem }()
	ar.logger.Debug("killing tasks", "reason", why)
	ar.runPreKillHooks()

	ctx := ar.shutdownCtx // a shutdown abandons the kill; tasks keep running
	for _, phase := range ar.policy.KillOrder(ar.taskDefs) {
		ar.killConcurrently(ctx, phase)
	}
	if !ar.life.isSetupDone() {
		ar.killConcurrently(ctx, ar.poststopTasks())
	}
}

// poststopTasks lists the poststop tasks by name.
func (ar *allocRunner) poststopTasks() []string {
	var out []string
	for _, name := range ar.taskNames {
		if ar.tasks[name].IsPoststopTask() {
			out = append(out, name)
		}
	}
	return out
}

func (ar *allocRunner) killConcurrently(ctx context.Context, names []string) {
	var wg sync.WaitGroup
	for _, name := range names {
		wg.Go(func() { ar.killTask(ctx, name) })
	}
	wg.Wait()
}

// killTask kills one task runner, with Killing unless it is dead.
func (ar *allocRunner) killTask(ctx context.Context, name string) {
	tr := ar.tasks[name]
	var ev *structs.TaskEvent
	if st := tr.SharedTaskState(); st == nil || st.State != structs.TaskStateDead {
		ev = structs.NewTaskEvent(structs.TaskKilling, ar.clock.Now()).
			SetKillTimeout(tr.Task().EffectiveKillTimeout(ar.clientConfig.MaxKillTimeout))
	}
	if err := tr.Kill(ctx, ev); err != nil {
		ar.logger.Warn("failed to kill task", "task", name, "error", err)
	}
}

// applyKillRules is the automatic part of AR-9, run on every task state
// pass: a kill rule appends its event to every live recipient and starts
// the kill procedure; otherwise, once every non-poststop task is dead,
// the all-tasks-finished step runs the kill procedure (prekill hooks, and
// dead task runners released from their alloc restart wait). Either
// happens at most once, never after another kill, and only after a
// successful setup (claimAutoKill). It reports whether it changed task
// states.
func (ar *allocRunner) applyKillRules(states map[string]*structs.TaskState) bool {
	if kill, ok := ar.policy.KillRule(ar.taskDefs, states); ok {
		if !ar.life.claimAutoKill() {
			return false
		}
		ev := kill.Event(ar.clock.Now())
		for _, name := range kill.Recipients {
			ar.tasks[name].AppendEvent(ev.Copy())
		}
		ar.startKill(kill.Type)
		return true
	}
	if ar.allFinished(states) && ar.life.claimAutoKill() {
		ar.startKill("all tasks finished")
	}
	return false
}

// allFinished reports whether every non-poststop task is dead.
func (ar *allocRunner) allFinished(states map[string]*structs.TaskState) bool {
	return !slices.ContainsFunc(ar.taskDefs, func(t *structs.Task) bool {
		if t.IsPoststop() {
			return false
		}
		s := states[t.Name]
		return s == nil || s.State != structs.TaskStateDead
	})
}
