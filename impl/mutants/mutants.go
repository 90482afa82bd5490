package mutants

import (
	"slices"
	"strings"

	"github.com/allocsim/allocsim/impl/allocrunner"
	"github.com/allocsim/allocsim/impl/client"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/internal/defect"
	"github.com/allocsim/allocsim/impl/taskrunner"
)

// Mutant is one deliberately wrong runner: the reference runner with one
// defect.
type Mutant struct {
	// Name is the mutant's name, also its Factory's.
	Name string
	// Breaks are the SPEC rule IDs the defect violates.
	Breaks []string
	// Mirrors is the real bug the defect reproduces, in one sentence.
	Mirrors string
	// Factory is the runner: the reference node client and alloc runner,
	// each built with the defect (each acts only on its own).
	Factory interfaces.Factory
}

// row is one table entry: the defect and, for schedule mutants, the
// evaluator replacing model/schedule's.
type row struct {
	name    string
	breaks  []string
	mirrors string
	defect  defect.Set
	eval    taskrunner.ScheduleEvaluator
}

// table is the mutant table, one row per defect of impl/internal/defect.
var table = []row{
	{ // AR-8: running ranks above failed; Nomad's ordering before failed-first.
		name: "status-running-over-failed", breaks: []string{"AR-8"}, defect: defect.StatusRunningOverFailed,
		mirrors: "An alloc status precedence that checks running before failed, so an alloc with a failed task and a live one reports running.",
	},
	{ // SCHED-4: Timezone ignored.
		name: "sched-utc", breaks: []string{"SCHED-4"}, defect: defect.SchedUTC, eval: evalUTC,
		mirrors: "A schedule evaluator that never loads the cron block's Timezone and reads every window in UTC.",
	},
	{ // SCHED-5/SCHED-10: Nomad 1.8-1.10's window algorithm.
		name: "sched-nomad-window", breaks: []string{"SCHED-5", "SCHED-10"}, defect: defect.SchedNomadWindow, eval: evalNomadWindow,
		mirrors: "Nomad 1.8-1.10's schedule windows: a 24 h absolute look-back, the start instant outside, overnight windows an error (#23329).",
	},
	{ // SCHED-6: gap times read with the post-gap offset.
		name: "sched-dst-naive", breaks: []string{"SCHED-6"}, defect: defect.SchedDSTNaive, eval: evalDSTNaive,
		mirrors: "Naive wall-clock conversion on a spring-forward day: 02:30 New York becomes 01:30 EST, an hour before the gap, instead of 03:30 EDT.",
	},
	{ // PAUSE-6: pause exits consume restart attempts.
		name: "pause-counts-restarts", breaks: []string{"PAUSE-6"}, defect: defect.PauseCountsRestarts,
		mirrors: "Nomad #25085: a schedule pause's task exit goes through the restart policy like a crash and can fail the task.",
	},
	{ // PAUSE-5: pause stop emits Killing.
		name: "pause-killing-event", breaks: []string{"PAUSE-5"}, defect: defect.PauseKillingEvent,
		mirrors: "A pause stop implemented with the ordinary kill path, which appends a Killing event.",
	},
	{ // TELEM-3: skipped prestart hooks emit telemetry.
		name: "telem-counts-skipped", breaks: []string{"TELEM-3"}, defect: defect.TelemCountsSkipped,
		mirrors: "Hook metrics emitted around the PrestartDone check, so skipped prestart hooks count as successful runs.",
	},
	{ // TELEM-4: elapsed not from the injected clock.
		name: "telem-wallclock", breaks: []string{"TELEM-4"}, defect: defect.TelemWallclock,
		mirrors: "Elapsed time measured with metrics.MeasureSince (the wall clock), which ignores simulated blocking.",
	},
	{ // STATE-4: recovered task gets a second Started.
		name: "restore-double-start", breaks: []string{"STATE-4"}, defect: defect.RestoreDoubleStart,
		mirrors: "A task runner that treats a recovered driver handle as a fresh start and appends Started again after a client restart.",
	},
	{ // AR-9: kill phases reversed.
		name: "kill-order", breaks: []string{"AR-9"}, defect: defect.KillOrder,
		mirrors: "A kill loop that stops sidecars (log shippers, proxies) before the leader, losing the leader's last output.",
	},
	{ // DATA-6: 11 events kept.
		name: "event-cap-11", breaks: []string{"DATA-6"}, defect: defect.EventCap11,
		mirrors: "An off-by-one in the task event ring (> instead of >= on the cap), keeping the newest 11 events.",
	},
	{ // AR-10: an older update replaces the queued one.
		name: "update-older-wins", breaks: []string{"AR-10"}, defect: defect.UpdateOlderWins,
		mirrors: "An update queue that replaces the queued alloc without comparing AllocModifyIndex, so a stale update wins.",
	},
	{ // AR-7: recoverable driver start errors treated as fatal.
		name: "restart-recoverable-lost", breaks: []string{"AR-7"}, defect: defect.RestartRecoverableLost,
		mirrors: "A driver start error wrapped before the restart tracker sees it, losing its recoverable flag, so a transient start failure fails the task (Error was unrecoverable).",
	},
	{ // AR-9: the kill-rule event skips the sidecars.
		name: "kill-rule-mains-only", breaks: []string{"AR-9"}, defect: defect.KillRuleMainsOnly,
		mirrors: "A kill rule that appends its event (Sibling Task Failed, Leader Task Dead, Main Tasks Dead) only to the non-sidecar tasks, so a sidecar's events never say why it was killed.",
	},
	{ // AR-9: main tasks start once prestart tasks started.
		name: "lifecycle-main-early", breaks: []string{"AR-9"}, defect: defect.LifecycleMainEarly,
		mirrors: "A start gate that checks the prestart tasks started (the sidecar condition) for every prestart task, so main tasks start before an init task completed.",
	},
	{ // DATA-8: Restarting's delay printed raw.
		name: "event-display-raw", breaks: []string{"DATA-8"}, defect: defect.EventDisplayRaw,
		mirrors: "A Restarting DisplayMessage formatted from the int64 StartDelay instead of a time.Duration: `Task restarting in 5123456789`.",
	},
	{ // STATE-3: the restored acknowledged state lost.
		name: "restore-forgets-ack", breaks: []string{"STATE-3"}, defect: defect.RestoreForgetsAck,
		mirrors: "An alloc runner that resets its sync bookkeeping when Run starts, dropping the acknowledged state Restore loaded, so every unchanged alloc is re-sent after a client restart.",
	},
	{ // SYNC-5: a failed batch re-sent after newer updates.
		name: "sync-retry-appended", breaks: []string{"SYNC-5"}, defect: defect.SyncRetryAppended,
		mirrors: "A retry list kept beside the pending-updates buffer: the failed batch is appended to every later UpdateAlloc after the fresh updates (the list is never cleared), so the server applies a stale copy last.",
	},
	{ // SYNC-3, SYNC-5.3: a failed batch is dropped, not re-inserted.
		name: "sync-lossy-retry", breaks: []string{"SYNC-3", "SYNC-5"}, defect: defect.SyncLossyRetry,
		mirrors: "A sync loop that takes the buffer before the RPC and forgets it when the call fails: a state whose UpdateAlloc failed reaches the server only if a newer one follows.",
	},
	{ // PAUSE-2: Get on an unknown task succeeds.
		name: "pause-get-unknown-ok", breaks: []string{"PAUSE-2"}, defect: defect.PauseGetUnknownOK,
		mirrors: "A pause-state lookup that returns the zero state for a task name it does not know instead of `Task not found`, so a typo in `alloc pause -status` reads as \"run per schedule\".",
	},
	{ // TELEM-2: node_class empty instead of none.
		name: "telem-class-empty", breaks: []string{"TELEM-2"}, defect: defect.TelemClassEmpty,
		mirrors: "Base labels built from the node's class verbatim, without the `none` default, so classless nodes emit node_class=\"\".",
	},
	{ // TELEM-5: DisableAllocationHookMetrics ignored.
		name: "telem-ignores-switch", breaks: []string{"TELEM-5"}, defect: defect.TelemIgnoresSwitch,
		mirrors: "Hook metric handlers built without passing disable_allocation_hook_metrics, so the switch has no effect.",
	},
	{ // SCHED-9: the no-future-start notice never appended.
		name: "sched-no-notice", breaks: []string{"SCHED-9"}, defect: defect.SchedNoNotice,
		mirrors: "A pause gate that drops the Task hook message of a schedule with no future start: the task stays paused silently.",
	},
	{ // PAUSE-10: a restored override re-evaluated as schedule.
		name: "pause-forgets-override", breaks: []string{"PAUSE-10"}, defect: defect.PauseForgetsOverride,
		mirrors: "A restore that seeds the pause gate from the schedule, not the persisted Paused value, so force_pause or force_run is lost in a client restart.",
	},
	{ // PAUSE-11: Signal on a paused task succeeds.
		name: "signal-paused-ok", breaks: []string{"PAUSE-11"}, defect: defect.SignalPausedOK,
		mirrors: "A Signal that returns nil when the task has no live handle (paused, dead or not started) instead of `Task not running`.",
	},
	{ // AR-7: within-policy restarts wait the bare Delay.
		name: "restart-no-jitter", breaks: []string{"AR-7"}, defect: defect.RestartNoJitter,
		mirrors: "A restart delay taken straight from the policy's Delay without the random jitter, so tasks that fail together restart together (a thundering herd).",
	},
	{ // SYNC-5.2: every 200 ms tick sends.
		name: "sync-no-priority", breaks: []string{"SYNC-3", "SYNC-5"}, defect: defect.SyncNoPriority,
		mirrors: "Nomad before prioritized client updates (1.9): the sync loop sends whatever is buffered on every 200 ms tick, so a busy node makes five UpdateAlloc calls a second.",
	},
	{ // SYNC-2, SYNC-5.1: ClientStatus changes classified Typical.
		name: "sync-lazy-status", breaks: []string{"SYNC-2", "SYNC-5"}, defect: defect.SyncLazyStatus,
		mirrors: "A priority function that compares task states but not ClientStatus, so a failed or complete alloc waits for the 5th tick like a routine task event.",
	},
	{ // SYNC-1, SYNC-5: the first buffered update per alloc kept.
		name: "sync-oldest-wins", breaks: []string{"SYNC-1", "SYNC-5"}, defect: defect.SyncOldestWins,
		mirrors: "A pending-updates buffer that inserts only when the alloc has no entry yet, so the server receives the oldest state of each batch window and the newest waits for the next change.",
	},
	{ // SYNC-5.5: AllocStateUpdated waits for the RPC in flight.
		name: "sync-blocking-producer", breaks: []string{"SYNC-1", "SYNC-5"}, defect: defect.SyncBlockingProducer,
		mirrors: "A buffer lock held across Node.UpdateAlloc: every task state change on the node waits for the server while a call hangs.",
	},
	{ // SYNC-3: updates sent before the first alloc pull succeeded.
		name: "sync-early-send", breaks: []string{"SYNC-3"}, defect: defect.SyncEarlySend,
		mirrors: "A sync loop that ignores ServersContactedCh, so a restarted client sends restored states before it learned what the servers still want.",
	},
	{ // HOOKRES-2, HOOKRES-4: get, modify, set per volume.
		name: "hookres-rmw", breaks: []string{"HOOKRES-2", "HOOKRES-4"}, defect: defect.HookresRMW,
		mirrors: "Nomad #16623's setter: the CSI hook reads the mount map, adds one volume and sets it back per volume, so a restored prestart racing the prerun sees a partial map.",
	},
	{ // HOOKRES-1, HOOKRES-4: resources handed to task runners late.
		name: "hookres-late-handoff", breaks: []string{"HOOKRES-1", "HOOKRES-4"}, defect: defect.HookresLateHandoff,
		mirrors: "Nomad 1.5.2 before #16722: task runners receive the hook resources through an unsynchronised setter after the CSI hook ran, so a restored prestart that runs first reads nil.",
	},
}

// All returns every mutant, sorted by name.
func All() []Mutant {
	out := make([]Mutant, 0, len(table))
	for _, r := range table {
		out = append(out, r.mutant())
	}
	slices.SortFunc(out, func(a, b Mutant) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Lookup returns the mutant called name.
func Lookup(name string) (Mutant, bool) {
	for _, r := range table {
		if r.name == name {
			return r.mutant(), true
		}
	}
	return Mutant{}, false
}

func (r row) mutant() Mutant {
	return Mutant{
		Name:    r.name,
		Breaks:  slices.Clone(r.breaks),
		Mirrors: r.mirrors,
		Factory: interfaces.Factory{Name: r.name, NewClient: client.WithDefects(r.defect),
			NewAllocRunner: allocrunner.WithDefects(r.defect, r.eval)},
	}
}
