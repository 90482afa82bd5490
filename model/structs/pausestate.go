package structs

// TaskScheduleState is a task's stored pause state (PAUSE-1), the value of
// TaskState.Paused.
type TaskScheduleState string

// Pause states (PAUSE-1). ScheduleResume is a transient request, never
// stored or returned.
const (
	TaskScheduleStateRun            TaskScheduleState = ""
	TaskScheduleStateSchedulePause  TaskScheduleState = "scheduled_pause"
	TaskScheduleStateForceRun       TaskScheduleState = "force_run"
	TaskScheduleStateForcePause     TaskScheduleState = "force_pause"
	TaskScheduleStateScheduleResume TaskScheduleState = "schedule_resume"
)

// Paused reports whether the state keeps the task from running
// (scheduled_pause or force_pause).
func (s TaskScheduleState) Paused() bool {
	return s == TaskScheduleStateSchedulePause || s == TaskScheduleStateForcePause
}

// Override reports whether the state is an operator override that suspends
// schedule tracking (force_run or force_pause).
func (s TaskScheduleState) Override() bool {
	return s == TaskScheduleStateForceRun || s == TaskScheduleStateForcePause
}
