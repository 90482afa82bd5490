package cluster

import (
	"slices"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestPlan: the plan is sorted, deterministic, and client i's part the
// same whatever the number of clients; every client's first placements
// hold exactly M allocs, within the first minute, at whole seconds.
func TestPlan(t *testing.T) {
	ch := Churn{AllocsPerClient: 50, Duration: 10 * time.Minute}
	ops := ch.Plan(9, 3)
	must.Eq(t, ops, ch.Plan(9, 3))
	must.True(t, slices.IsSortedFunc(ops, func(a, b Op) int { return int(a.At - b.At) }))
	mine := func(ops []Op, i int) []Op {
		return slices.DeleteFunc(slices.Clone(ops), func(op Op) bool { return op.Client != i })
	}
	must.Eq(t, mine(ch.Plan(9, 1), 0), mine(ops, 0))
	must.NotEq(t, mine(ops, 0), mine(ch.Plan(10, 3), 0))
	kinds := map[string]int{}
	for i := range 3 {
		first := 0
		for _, op := range mine(ops, i) {
			must.Eq(t, 0, op.At%time.Second, must.Sprint(op))
			must.Less(t, ch.Duration, op.At)
			if op.Kind == OpPlace && op.At < time.Minute && !isSuccessor(op.Job.ID) {
				first += op.Job.TaskGroups[0].Count
				must.NoError(t, op.Job.Validate(""))
				kinds[kindOf(op.Job)]++
			}
			if op.Kind != OpPlace {
				must.GreaterEq(t, 2*time.Minute, op.At)
			}
		}
		must.Eq(t, 50, first, must.Sprintf("client %d", i))
	}
	for _, k := range []string{kindService, kindSidecar, kindCrashing, kindBatch} {
		must.Positive(t, kinds[k], must.Sprint(k))
	}
	must.Error(t, Churn{}.Validate())
}

func isSuccessor(id string) bool {
	for i := len(id) - 1; i > 0; i-- {
		if id[i] == 'r' && id[i-1] == '-' {
			return true
		}
		if id[i] < '0' || id[i] > '9' {
			return false
		}
	}
	return false
}

func kindOf(j *structs.Job) string {
	tasks := j.TaskGroups[0].Tasks
	switch {
	case j.Type == structs.JobTypeBatch:
		return kindBatch
	case len(tasks) == 2:
		return kindSidecar
	case tasks[0].Config["run_for"] != nil:
		return kindCrashing
	}
	return kindService
}

// TestGroups: a client's placements at one instant go together; stops go
// alone.
func TestGroups(t *testing.T) {
	j := func(id string) *structs.Job { return &structs.Job{ID: id} }
	ops := []Op{
		{At: 0, Client: 0, Kind: OpPlace, Job: j("a")},
		{At: 0, Client: 0, Kind: OpUpdate, Job: j("b")},
		{At: 0, Client: 1, Kind: OpPlace, Job: j("c")},
		{At: time.Second, Client: 1, Kind: OpPlace, Job: j("d")},
		{At: time.Second, Client: 1, Kind: OpStop, Job: j("e")},
		{At: time.Second, Client: 1, Kind: OpStop, Job: j("f")},
	}
	var got [][]string
	for _, g := range groups(ops) {
		var ids []string
		for _, op := range g {
			ids = append(ids, op.Job.ID)
		}
		got = append(got, ids)
	}
	must.Eq(t, [][]string{{"a", "b"}, {"c"}, {"d"}, {"e"}, {"f"}}, got)
}
