package hookresources

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/trace"
)

// checkPrerunMounted: the CSI hook's prerun mounts every CSI volume of the
// group (HOOKRES-2) and prerun ends before any task starts (AR-4), so
// when a task of an alloc with CSI volumes begins a prestart (its task
// dir build) every alias of the group was mounted in that client
// incarnation. Without it a hook that mounts too little, or nothing,
// leaves every reader the empty map, which the linearizability check
// accepts (an empty map is what a reader before the write sees).
func checkPrerunMounted(v *prop.View) {
	type key struct {
		alloc string
		inc   int
	}
	inc := 0
	mounted := map[key]map[string]time.Time{} // alias → its first mount
	var builds []trace.Record                 // each alloc's first task dir build of an incarnation
	buildInc := map[key]bool{}
	incs := []int{}
	for _, r := range v.Records() {
		k := key{r.Alloc, inc}
		switch {
		case startsIncarnation(r, &inc):
		case inc == 0 || r.Kind != trace.KindPort:
		case r.Op == trace.PortCSIMount && r.Msg == "ok":
			if mounted[k] == nil {
				mounted[k] = map[string]time.Time{}
			}
			if _, ok := mounted[k][r.Task]; !ok {
				mounted[k][r.Task] = r.At
			}
		case r.Op == trace.PortTaskDirBuild && r.Msg == "invoke" && !buildInc[k]:
			buildInc[k] = true
			builds = append(builds, r)
			incs = append(incs, inc)
		}
	}
	// The records of one instant are in the recorder's order, not the
	// calls': a mount at the build's instant counts as before it.
	for i, b := range builds {
		k := key{b.Alloc, incs[i]}
		group := groupAliases(v, b.Alloc)
		var have, missing []string
		for _, a := range group {
			if at, ok := mounted[k][a]; ok && !at.After(b.At) {
				have = append(have, a)
			} else {
				missing = append(missing, a)
			}
		}
		if len(missing) > 0 {
			v.Violate(prop.Violation{At: b.At, Alloc: b.Alloc, Task: b.Task,
				What: fmt.Sprintf("CSI volumes mounted in client incarnation %d when the task's prestart began (its task dir build)", incs[i]),
				Got:  fmt.Sprintf("%q mounted, %q not", have, missing),
				Want: fmt.Sprintf("every CSI volume of the group %q: csi_hook's prerun mounts them all before tasks start (HOOKRES-2, AR-4)", group)})
			return
		}
	}
}

// checkSetupFailureCause: AR-4's `Setup Failure` reports a prerun hook's
// error, and a prerun here fails only through a port (the alloc dir build
// or a CSI mount returning an error: the scenario's faults); a kill or
// shutdown cancelling it gives none (SPEC-NOTES). So every `Setup Failure`
// of an alloc follows a failed alloc dir build or CSI mount of that alloc
// in the same client incarnation, one that failed by itself: a mount a
// kill cancelled (its error the context's) does not count. Without it a
// csi_hook that fails a prerun whose mounts all succeeded passes (the
// tasks never start, so no reader sees a map), and so does a runner that
// takes a stop's cancelled prerun for a failed one.
func checkSetupFailureCause(v *prop.View) {
	type key struct {
		alloc string
		inc   int
	}
	inc := 0
	firstFailure := map[key]time.Time{}
	type setupFailure struct {
		r   trace.Record
		inc int
	}
	var events []setupFailure
	for _, r := range v.Records() {
		k := key{r.Alloc, inc}
		switch {
		case startsIncarnation(r, &inc):
		case r.Kind == trace.KindPort && (r.Op == trace.PortCSIMount || r.Op == trace.PortAllocDirBuild) && strings.HasPrefix(r.Msg, "error") &&
			!strings.Contains(r.Msg, context.Canceled.Error()):
			if _, ok := firstFailure[k]; !ok {
				firstFailure[k] = r.At
			}
		case r.Kind == trace.KindTaskEvent && r.Msg == structs.TaskSetupFailure:
			events = append(events, setupFailure{r, inc})
		}
	}
	// The records of one instant are in the recorder's order (port
	// records last), not the calls': a failure at the event's instant
	// counts as before it.
	for _, e := range events {
		if at, ok := firstFailure[key{e.r.Alloc, e.inc}]; ok && !at.After(e.r.At) {
			continue
		}
		v.Violate(prop.Violation{At: e.r.At, Alloc: e.r.Alloc, Task: e.r.Task,
			What: fmt.Sprintf("%q event in client incarnation %d", structs.TaskSetupFailure, e.inc),
			Got:  "appended, with no alloc dir build or CSI mount of the alloc in that incarnation failed so far but by a kill's cancellation",
			Want: "none: Setup Failure reports a prerun hook's error, and csi_hook's prerun fails only when a mount fails (AR-4, HOOKRES-2)"})
		return
	}
}

// startsIncarnation reports whether r is a client start, setting *inc to
// the incarnation it starts.
func startsIncarnation(r trace.Record, inc *int) bool {
	if r.Kind != trace.KindWorld || r.Msg != trace.MsgClientStart {
		return false
	}
	var d struct{ Incarnation int }
	if json.Unmarshal(r.Data, &d) == nil && d.Incarnation > 0 {
		*inc = d.Incarnation
	}
	return true
}

// checkUnmounted: csi_hook's postrun unmounts what its prerun mounted
// (AR-4), and postrun runs once every task runner exited, before Run
// returns (AR-1's WaitCh), unless the runner shut down. So once the
// runner of an alloc in the running client incarnation has returned from
// Run, every CSI volume it mounted in that incarnation was unmounted
// after its mount. A shut-down runner belongs to a crashed incarnation,
// whose mounts are not checked. Without it a csi_hook whose postrun
// forgets its mounts passes: no task reads the map after it.
func checkUnmounted(v *prop.View) {
	inc, ms := returnedMounts(v)
	for _, m := range ms {
		if m.unmounted.IsZero() || m.unmounted.Before(m.mounted) {
			v.Violatef(m.alloc, "", fmt.Sprintf("CSI volume %q mounted at %s in client incarnation %d, once Run returned", m.alias,
				m.mounted.Format(time.RFC3339Nano), inc), "not unmounted",
				"unmounted: csi_hook's postrun unmounts what its prerun mounted, after every task runner exited (AR-4)")
			return
		}
	}
}

// returnedMount is a CSI volume mounted in the running incarnation by a
// runner that has returned from Run since, and its last unmount (zero:
// none).
type returnedMount struct {
	alloc, alias       string
	mounted, unmounted time.Time
}

// returnedMounts lists the running incarnation's returnedMounts, by
// alloc and alias.
func returnedMounts(v *prop.View) (int, []returnedMount) {
	inc, up := v.World.Incarnation()
	if !up {
		return inc, nil
	}
	type mount struct{ alloc, alias string }
	mounted := map[mount]time.Time{}
	unmounted := map[mount]time.Time{}
	for _, c := range v.World.PortCalls() {
		if c.Incarnation != inc || !c.Returned || c.Err != "" {
			continue
		}
		m := mount{c.Alloc, c.Task}
		switch c.Op {
		case trace.PortCSIMount:
			mounted[m] = c.Return
		case trace.PortCSIUnmount:
			unmounted[m] = c.Invoke
		}
	}
	var out []returnedMount
	for _, m := range slices.SortedFunc(maps.Keys(mounted), func(a, b mount) int {
		return cmp.Or(cmp.Compare(a.alloc, b.alloc), cmp.Compare(a.alias, b.alias))
	}) {
		if ar := v.World.AllocRunner(m.alloc); ar != nil && prop.Closed(ar.WaitCh()) {
			out = append(out, returnedMount{alloc: m.alloc, alias: m.alias, mounted: mounted[m], unmounted: unmounted[m]})
		}
	}
	return inc, out
}
