package alloccmd

// PauseSummary is SPEC API-8's synopsis, listed by `conform help`.
const PauseSummary = "Pause a running task"

// SPEC API-8's messages, verbatim.
const (
	MsgArgs          = "This command takes up to two arguments: <alloc-id> <task>"
	FmtBadState      = "Pause action must be one of \"pause\", \"run\", or \"scheduled\" but got %q"
	MsgShortID       = "Alloc ID must contain at least two characters."
	FmtQueryAlloc    = "Error querying allocation: %v"
	FmtNoAlloc       = "No allocation(s) with prefix or id %q found"
	MsgMultipleMatch = "Prefix matched multiple allocations"
	FmtTaskNotFound  = "Could not find task named: %s, found:"
	FmtPauseState    = "Pause state: %q"
	FmtGetState      = "Error getting task pause state: %v"
	FmtSetState      = "Error setting pause state: %v"
)

// FmtTaskRequired is this command's own (SPEC is silent): no task was
// named and the alloc's group has several; the group's task names follow,
// one per line, as for FmtTaskNotFound.
const FmtTaskRequired = "Allocation %q has more than one task; name one with <task> or -task, found:"

// The -state values (API-2's ScheduleState).
const (
	StatePause     = "pause"
	StateRun       = "run"
	StateScheduled = "scheduled"
)
