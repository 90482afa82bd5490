package telemetry

// Hook names whose executions TELEM-3 instruments, in registration order.
const (
	HookAllocDir        = "alloc_dir"
	HookAwaitPrevAllocs = "await_previous_allocations"
	HookMigrateDisk     = "migrate_disk"
	HookCSI             = "csi_hook"

	HookValidate = "validate"
	HookTaskDir  = "task_dir"
	HookVolumes  = "volumes"
)

// PrerunHookOrder returns the required prerun-capable alloc hooks in
// order (AR-4). A fresh slice each call.
func PrerunHookOrder() []string {
	return []string{HookAllocDir, HookAwaitPrevAllocs, HookMigrateDisk, HookCSI}
}

// PrestartHookOrder returns the required prestart-capable task hooks in
// order (AR-5; the pause hook has no prestart). A fresh slice each call.
func PrestartHookOrder() []string {
	return []string{HookValidate, HookTaskDir, HookVolumes}
}

// HookRun is one hook execution that must emit, and whether it failed.
type HookRun struct {
	Name   string
	Failed bool
}

// ExpectedPrerunEmissions lists the alloc prerun executions that emit in
// one prerun pass (TELEM-3): none when the alloc should not run (AR-4);
// else each hook of hookOrder (the prerun-capable hooks, in order) up to
// and including the one at index failedAt, which emits failed, and none
// after it. failedAt < 0 or ≥ len(hookOrder) means no hook fails.
func ExpectedPrerunEmissions(hookOrder []string, failedAt int, shouldRun bool) []HookRun {
	if !shouldRun {
		return nil
	}
	var out []HookRun
	for i, name := range hookOrder {
		out = append(out, HookRun{Name: name, Failed: i == failedAt})
		if i == failedAt {
			break
		}
	}
	return out
}

// ExpectedPrestartEmissions lists the task prestart executions that emit
// in one prestart pass (TELEM-3): each hook of hookOrder (the
// prestart-capable hooks, in order) not marked done (PrestartDone: skipped,
// emits nothing), up to and including the one at index failedAt, which
// emits failed. A done hook does not run, so failedAt pointing at one fails
// nothing; failedAt < 0 or ≥ len(hookOrder) means no hook fails. Call it
// once per (re)start: prestart metrics repeat on every restart.
func ExpectedPrestartEmissions(hookOrder []string, done map[string]bool, failedAt int) []HookRun {
	var out []HookRun
	for i, name := range hookOrder {
		if done[name] {
			continue
		}
		out = append(out, HookRun{Name: name, Failed: i == failedAt})
		if i == failedAt {
			break
		}
	}
	return out
}
