package timeline

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// allocInfo is what the trace and the scenario tell about one alloc.
type allocInfo struct {
	id         string
	job, group string
	// index is the alloc's index in its group, -1 when unknown.
	index int
	// batch is the registration that placed it (its KindJob record's
	// position), registered its instant.
	batch      int
	registered time.Time
	count      int
	// tasks are the task names the trace shows, first seen first;
	// order is their place in the group.
	tasks []string
	order map[string]int
	name  string
}

type jobData struct {
	Job    string   `json:"job"`
	Allocs []string `json:"allocs"`
	Error  string   `json:"error"`
}

// resolveAllocs finds every alloc's job, group and name: the job from
// the registration that placed it, the group from the tasks it runs
// (the group with the fewest tasks that has them all), the index from
// scenario API calls that named it, or by elimination within its
// registration.
func resolveAllocs(records []trace.Record, sc scenario.Scenario) map[string]*allocInfo {
	allocs := map[string]*allocInfo{}
	get := func(id string) *allocInfo {
		a, ok := allocs[id]
		if !ok {
			a = &allocInfo{id: id, index: -1, batch: -1, order: map[string]int{}}
			allocs[id] = a
		}
		return a
	}
	for i, r := range records {
		switch r.Kind {
		case trace.KindJob:
			if r.Op != "register" || r.Msg == "rejected" {
				continue
			}
			var d jobData
			if json.Unmarshal(r.Data, &d) != nil {
				continue
			}
			for _, id := range d.Allocs {
				if a := get(id); a.batch < 0 {
					a.job, a.batch, a.registered = d.Job, i, r.At
				}
			}
		case trace.KindTask, trace.KindTaskEvent:
			if r.Alloc == "" || r.Task == "" {
				continue
			}
			if a := get(r.Alloc); !slices.Contains(a.tasks, r.Task) {
				a.tasks = append(a.tasks, r.Task)
			}
		}
	}
	for _, a := range allocs {
		resolveGroup(a, sc)
	}
	for _, r := range records {
		if r.Kind != trace.KindAPI || r.Alloc == "" {
			continue
		}
		if a := allocs[r.Alloc]; a != nil && a.index < 0 {
			a.index = calledIndex(r, a, sc)
		}
	}
	eliminate(allocs)
	for _, a := range allocs {
		a.name = allocName(a)
	}
	return allocs
}

// resolveGroup picks the group of a's job with the fewest tasks that
// holds every task a runs (the first such group of the first job
// version that has one).
func resolveGroup(a *allocInfo, sc scenario.Scenario) {
	if a.job == "" || len(a.tasks) == 0 {
		return
	}
	var best *structs.TaskGroup
	for _, j := range sc.Jobs {
		if j.Job == nil || j.Job.ID != a.job {
			continue
		}
		for _, tg := range j.Job.TaskGroups {
			if tg == nil || !hasTasks(tg, a.tasks) {
				continue
			}
			if best == nil || len(tg.Tasks) < len(best.Tasks) {
				best = tg
			}
		}
	}
	if best == nil {
		return
	}
	a.group, a.count = best.Name, best.Count
	for i, t := range best.Tasks {
		if t != nil {
			a.order[t.Name] = i
		}
	}
}

func hasTasks(tg *structs.TaskGroup, names []string) bool {
	for _, n := range names {
		if tg.LookupTask(n) == nil {
			return false
		}
	}
	return true
}

// calledIndex is the index of the alloc a scenario call named, when
// exactly one call of the record's instant, op and task names an alloc
// of a's job and group.
func calledIndex(r trace.Record, a *allocInfo, sc scenario.Scenario) int {
	index := -1
	for _, c := range sc.Calls {
		if !sc.Start.Add(c.At.D()).Equal(r.At) || string(c.Op) != r.Op || c.Task != r.Task {
			continue
		}
		job, group, i, ok := parseAllocName(c.Alloc)
		if !ok || job != a.job || group != a.group {
			continue
		}
		if index >= 0 && index != i {
			return -1
		}
		index = i
	}
	return index
}

// parseAllocName splits "<job>.<group>[<i>]"; job IDs may hold dots, so
// the group is after the last one.
func parseAllocName(name string) (job, group string, index int, ok bool) {
	open := strings.LastIndexByte(name, '[')
	if open < 0 || !strings.HasSuffix(name, "]") {
		return "", "", 0, false
	}
	i, err := strconv.Atoi(name[open+1 : len(name)-1])
	if err != nil || i < 0 {
		return "", "", 0, false
	}
	dot := strings.LastIndexByte(name[:open], '.')
	if dot < 0 {
		return "", "", 0, false
	}
	return name[:dot], name[dot+1 : open], i, true
}

// eliminate gives the one alloc of a registration's group whose index is
// unknown the one index no other alloc of it has.
func eliminate(allocs map[string]*allocInfo) {
	type key struct {
		batch int
		group string
	}
	byGroup := map[key][]*allocInfo{}
	for _, a := range allocs {
		if a.group != "" && a.batch >= 0 {
			k := key{a.batch, a.group}
			byGroup[k] = append(byGroup[k], a)
		}
	}
	for _, as := range byGroup {
		var unknown []*allocInfo
		taken := map[int]bool{}
		for _, a := range as {
			if a.index < 0 {
				unknown = append(unknown, a)
			} else {
				taken[a.index] = true
			}
		}
		if len(unknown) != 1 {
			continue
		}
		var free []int
		for i := range unknown[0].count {
			if !taken[i] {
				free = append(free, i)
			}
		}
		if len(free) == 1 {
			unknown[0].index = free[0]
		}
	}
}

func allocName(a *allocInfo) string {
	switch {
	case a.job == "":
		return short(a.id)
	case a.group == "":
		return a.job + "." + short(a.id)
	case a.index < 0:
		return a.job + "." + a.group + "[?" + short(a.id) + "]"
	}
	return fmt.Sprintf("%s.%s[%d]", a.job, a.group, a.index)
}

// short is an alloc ID's first eight characters, as Nomad prints it.
func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// rejectedAt lists, per job, the instants the server rejected a
// registration of it (a job version that never took effect).
func rejectedAt(records []trace.Record) map[string][]time.Time {
	out := map[string][]time.Time{}
	for _, r := range records {
		if r.Kind != trace.KindJob || r.Op != "register" || r.Msg != "rejected" {
			continue
		}
		var d jobData
		if json.Unmarshal(r.Data, &d) == nil {
			out[d.Job] = append(out[d.Job], r.At)
		}
	}
	return out
}
