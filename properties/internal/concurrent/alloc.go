package concurrent

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
)

// Task names of the check's group: flaky exits within milliseconds and
// restarts, steady runs until stopped and takes a while to die, so that a
// kill (a stop, a removal, a restart call) is in progress for a bit.
const (
	taskFlaky  = "flaky"
	taskSteady = "steady"
)

const nodeID = "node-concurrent"

// newAlloc is alloc i of a check, placed on the node at index; the
// steady task of a scheduled one runs only in a window of its schedule
// that closes shortly after start (on the runners' clock). Its
// durations are on the runners' clock (scaledClock): in real time flaky
// runs 3 ms, waits 1 ms to restart, and a kill takes steady 3 ms.
func newAlloc(i int, index uint64, scheduled bool, start time.Time) *structs.Allocation {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond * speedup }
	tg := &structs.TaskGroup{Name: "g", Count: 1,
		RestartPolicy: structs.NewRestartPolicy(3, ms(50), ms(1), structs.RestartPolicyModeDelay)}
	tg.Tasks = []*structs.Task{
		{Name: taskFlaky, Driver: "mock_driver", KillTimeout: ms(2), KillSignal: "SIGTERM",
			Config: map[string]any{"run_for": ms(3).String(), "exit_code": 1, "kill_after": ms(1).String()}},
		{Name: taskSteady, Driver: "mock_driver", KillTimeout: ms(2), KillSignal: "SIGTERM",
			Config: map[string]any{"kill_after": ms(3).String()}},
	}
	if scheduled {
		// A window that is open at start and closes shortly after
		// (windowCloses): the pause gate stops the task then (PAUSE-5),
		// unless the task runner shut down first, which stops the gate's
		// timer (tasks keep running after a shutdown).
		open := start.Truncate(time.Minute).Add(-time.Minute).UTC()
		shut := windowCloses(start)
		tg.Tasks[1].Schedule = &schedule.Schedule{Cron: &schedule.Cron{
			Start: fmt.Sprintf("%d %d * * * *", open.Minute(), open.Hour()),
			End:   fmt.Sprintf("%d %d", shut.Minute(), shut.Hour()), Timezone: "UTC",
		}}
	}
	job := &structs.Job{ID: "concurrent", Name: "concurrent", Type: structs.JobTypeService, TaskGroups: []*structs.TaskGroup{tg}}
	job.Canonicalize()
	return &structs.Allocation{
		ID: fmt.Sprintf("c0ffee00-0000-4000-8000-%012d", i), Name: fmt.Sprintf("concurrent.g[%d]", i),
		NodeID: nodeID, JobID: job.ID, Job: job, TaskGroup: tg.Name,
		DesiredStatus: structs.AllocDesiredStatusRun, ClientStatus: structs.AllocClientStatusPending,
		CreateIndex: index, ModifyIndex: index, AllocModifyIndex: index,
	}
}

// clientStatuses are the client statuses a computed alloc may carry.
var clientStatuses = map[string]bool{
	"": true, structs.AllocClientStatusPending: true, structs.AllocClientStatusRunning: true,
	structs.AllocClientStatusComplete: true, structs.AllocClientStatusFailed: true,
	structs.AllocClientStatusLost: true, structs.AllocClientStatusUnknown: true,
}

// wellFormed reports what is wrong with a runner's AllocState, "" if
// nothing: a copy with a known client status and task states only of the
// group's tasks.
func wellFormed(s *structs.AllocState) string {
	if s == nil {
		return "AllocState returned nil"
	}
	if !clientStatuses[s.ClientStatus] {
		return fmt.Sprintf("AllocState has client status %q", s.ClientStatus)
	}
	for name, ts := range s.TaskStates {
		if name != taskFlaky && name != taskSteady {
			return fmt.Sprintf("AllocState has a state of task %q, not of the group", name)
		}
		if ts == nil {
			return fmt.Sprintf("AllocState has a nil state for task %q", name)
		}
	}
	return ""
}

// windowCloses is when the window of a scheduled alloc built at start
// closes, on the runners' clock: 5 to 6 minutes later (30 to 36 ms), 16
// to 17 under -race, whose slower runs shut the client down later; late
// enough that a loaded machine has shut the client down before (10 to
// 25 ms after start on 2 cores at a load of 6), and every millisecond
// of it is real time a check waits.
func windowCloses(start time.Time) time.Time {
	lead := 5 * time.Minute
	if raceBuild {
		lead = 16 * time.Minute
	}
	return start.Add(lead).Truncate(time.Minute).Add(time.Minute).UTC()
}
