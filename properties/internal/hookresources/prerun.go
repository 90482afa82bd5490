package hookresources

import (
	"encoding/json"
	"fmt"
	"time"

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
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
			var d struct{ Incarnation int }
			if json.Unmarshal(r.Data, &d) == nil && d.Incarnation > 0 {
				inc = d.Incarnation
			}
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
