package linearizability

import (
	"cmp"
	"maps"
	"slices"
)

// plannedOp is an operation of a history to record, with the instant it
// takes effect at.
type plannedOp struct {
	op    Op
	at    int64 // linearization point
	takes bool  // whether it takes effect (an open write may not)
}

// recordAtomic records plan as an atomic implementation would: the
// operations take effect at their points in order (ties in plan order),
// each set that takes effect replaces the map, and each read gets what
// HOOKRES-3 sees at its point, with the sources it saw when withSources,
// asked once per read in that order, says so. It returns the ops in plan
// order.
func recordAtomic(plan []plannedOp, withSources func() bool) []Op {
	order := make([]int, len(plan))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(plan[a].at, plan[b].at) })
	ops := make([]Op, len(plan))
	for i, p := range plan {
		ops[i] = p.op
	}
	state := map[string]string{}
	for _, i := range order {
		switch in := plan[i].op.Input.(type) {
		case SetMounts:
			if plan[i].takes {
				state = maps.Clone(in.Mounts)
			}
		case GetMounts:
			missing, present := observe(state, in.Aliases)
			seen := MountsSeen{Missing: missing}
			if withSources() {
				seen.Sources = map[string]string{}
				for _, a := range present {
					seen.Sources[a] = state[a]
				}
			}
			ops[i].Output = seen
		}
	}
	return ops
}
