package prop

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// Phase is where a run is when a checker sees it.
type Phase int

// Phases of one run.
const (
	// Running is the scenario, faults and all.
	Running Phase = iota
	// Liveness is the fault-free time after the scenario's end.
	Liveness
	// Final is the final check, after the world stopped advancing.
	Final
)

func (p Phase) String() string {
	switch p {
	case Running:
		return "running"
	case Liveness:
		return "liveness"
	default:
		return "final"
	}
}

// View is what a checker sees of a run at one settled instant.
type View struct {
	// World is the run's world (settled: no goroutine of the run moves
	// while a checker looks).
	World *sim.World
	// Scenario is the run's scenario.
	Scenario scenario.Scenario
	// Phase is the run's phase.
	Phase Phase
	// New holds the trace records flushed since the previous call, in
	// trace order (at Final: none).
	New []trace.Record

	cursor      int
	allocs      []*structs.Allocation
	allocsAt    uint64
	violations  []Violation
	attachments map[string][]byte
	situations  []Situation     // the property's catalogue
	reached     map[string]bool // what this run reached (Reach)
}

// Attach attaches a file to the run's violation (porcupine's HTML
// visualization of an illegal history, say): a failure writes it among
// its artifacts as <property>-seed-<seed><suffix> and names its path.
func (v *View) Attach(suffix string, data []byte) {
	if v.attachments == nil {
		v.attachments = map[string][]byte{}
	}
	v.attachments[suffix] = data
}

// Now is the virtual time.
func (v *View) Now() time.Time { return v.World.Now() }

// Allocs is what the runners last pushed of each alloc, sorted by ID
// (World.ClientAllocs), read once per instant.
func (v *View) Allocs() []*structs.Allocation {
	if steps := v.World.Steps(); v.allocs == nil || v.allocsAt != steps {
		v.allocs, v.allocsAt = v.World.ClientAllocs(), steps
	}
	return v.allocs
}

// Alloc is what the runners last pushed of alloc id, or nil.
func (v *View) Alloc(id string) *structs.Allocation {
	for _, a := range v.Allocs() {
		if a.ID == id {
			return a
		}
	}
	return nil
}

// ServerAlloc is the server's alloc id (with its job), or nil: the
// server's own (Server.SharedAlloc), to be read, never changed.
func (v *View) ServerAlloc(id string) *structs.Allocation { return v.World.Server().SharedAlloc(id) }

// Task is the task definition of alloc id's job (the server's latest
// version), or nil.
func (v *View) Task(allocID, task string) *structs.Task {
	a := v.ServerAlloc(allocID)
	if a == nil || a.Job == nil {
		return nil
	}
	if tg := a.Job.LookupTaskGroup(a.TaskGroup); tg != nil {
		return tg.LookupTask(task)
	}
	return nil
}

// Records is every trace record so far (for Final checks): the trace's
// own records, not a copy (trace.Recorder.From), so read them and change
// none.
func (v *View) Records() []trace.Record { return v.World.Trace().From(0) }

// Failed reports whether the run has a violation.
func (v *View) Failed() bool { return len(v.violations) > 0 }

// Violate records a violation at the current instant. Its zone, if nil,
// is the task's schedule zone or the client's local zone.
func (v *View) Violate(x Violation) {
	if x.At.IsZero() {
		x.At = v.Now()
	}
	if x.Zone == nil {
		x.Zone = v.zoneOf(x.Alloc, x.Task)
	}
	if x.Name == "" && x.Alloc != "" {
		if a := v.ServerAlloc(x.Alloc); a != nil {
			x.Name = a.Name
		}
	}
	if len(v.violations) < maxViolations {
		v.violations = append(v.violations, x)
	}
}

// Violatef records a violation of alloc/task: what = got, want want.
func (v *View) Violatef(alloc, task, what string, got, want any) {
	v.Violate(Violation{Alloc: alloc, Task: task, What: what, Got: fmt.Sprint(got), Want: fmt.Sprint(want)})
}

// maxViolations bounds what one run keeps.
const maxViolations = 20

// zoneOf is the zone a violation about alloc/task reads in: the task's
// schedule zone (SCHED-4), else the client's local zone.
func (v *View) zoneOf(alloc, task string) *time.Location {
	local := time.UTC
	if z := v.Scenario.LocalZone; z != "" {
		if loc, err := schedule.Location(z); err == nil {
			local = loc
		}
	}
	if alloc == "" || task == "" {
		return local
	}
	t := v.Task(alloc, task)
	if t == nil || t.Schedule == nil || t.Schedule.Cron == nil {
		return local
	}
	if loc, err := schedule.LoadZone(t.Schedule.Cron.Timezone, local); err == nil {
		return loc
	}
	return local
}

// Closed reports whether ch is closed, without waiting.
func Closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
