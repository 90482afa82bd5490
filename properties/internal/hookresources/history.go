package hookresources

import (
	"fmt"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/telemetry"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

// checkMissingMounts checks, for each event appended at the instant, that
// a volumes prestart failure about a missing mount names one of the
// task's CSI aliases and is recoverable (HOOKRES-3, AR-5); it reports the
// first that is not.
func checkMissingMounts(v *prop.View, feed *prop.EventFeed) {
	for _, ne := range feed.Next(v) {
		e := ne.Event
		hook, msg, ok := structs.SplitHookFailed(e.Message)
		if e.Type != structs.TaskHookFailed || !ok || hook != telemetry.HookVolumes {
			continue
		}
		alias, isMissing := structs.MissingCSIMount(msg)
		switch aliases := csiAliases(v, ne.Key.Alloc, ne.Key.Task); {
		case !isMissing:
			continue // another failure of the hook (a panic is HOOKRES-4/no-nil-read's)
		case !slices.Contains(aliases, alias):
			v.Violatef(ne.Key.Alloc, ne.Key.Task, "volumes prestart failure", e.Message,
				"a missing mount named by one of the task's CSI aliases "+fmt.Sprint(aliases))
			return
		case e.FailsTask:
			v.Violatef(ne.Key.Alloc, ne.Key.Task, "FailsTask of `"+e.Message+"`", true, "false: a missing mount is recoverable (HOOKRES-3, AR-5)")
			return
		}
	}
}

// viewVolumes tells linearizability.HookResourcesFromTrace the aliases of
// the run's allocs (the server's job).
type viewVolumes struct{ v *prop.View }

func (w viewVolumes) GroupAliases(alloc string) []string      { return groupAliases(w.v, alloc) }
func (w viewVolumes) TaskAliases(alloc, task string) []string { return csiAliases(w.v, alloc, task) }

// groupAliases are alloc id's group CSI volume aliases, sorted.
func groupAliases(v *prop.View, id string) []string {
	a := v.ServerAlloc(id)
	if a == nil || a.Job == nil {
		return nil
	}
	return a.Job.LookupTaskGroup(a.TaskGroup).CSIAliases()
}

// csiAliases are the group CSI aliases task mounts, sorted (HOOKRES-3's
// order).
func csiAliases(v *prop.View, id, task string) []string {
	a := v.ServerAlloc(id)
	if a == nil || a.Job == nil {
		return nil
	}
	return a.Job.LookupTaskGroup(a.TaskGroup).TaskCSIAliases(v.Task(id, task))
}

// at is a history timestamp as an instant of the run.
func at(start time.Time, ts int64) time.Time { return start.Add(time.Duration(ts)) }
