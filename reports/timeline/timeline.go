package timeline

import (
	"cmp"
	"regexp"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/sim/trace"
)

// Timeline is one run over virtual time.
type Timeline struct {
	// Scenario and Seed name the run; Runner is the runner the trace
	// says ran it (the world's start record).
	Scenario string
	Seed     uint64
	Runner   string
	// Start and End bound the run in virtual time (UTC): the scenario's
	// start and the trace's last instant.
	Start, End time.Time
	// Local is the client's local zone (the scenario's LocalZone, UTC
	// when it has none).
	Local *time.Location
	// Lanes are the tasks of every alloc, by alloc name, alloc ID, then
	// the task's place in its group.
	Lanes []Lane
	// RPCs are the node's RPCs, in trace order.
	RPCs []RPC
	// Marks are faults, crashes, restarts and violations, in time order.
	Marks []Mark
	// Notes are the other things the text form prints, in trace order.
	Notes []Note
}

// Lane is one task of one alloc.
type Lane struct {
	// AllocID is the alloc's ID; Alloc its name, "<job>.<group>[<i>]"
	// ("<job>.<group>[?<short ID>]" when neither the trace nor the
	// scenario tells the index).
	AllocID, Alloc string
	Job, Group     string
	Task           string
	// Zone is where the lane's local times are read: its schedule's
	// zone, or the client's local zone for an unscheduled task.
	Zone *time.Location
	// Schedules are the task's schedules over the run (a job update can
	// replace one); ScheduleError is why one could not be evaluated.
	Schedules     []ScheduleSpan
	ScheduleError string
	// Windows are the schedule's merged windows that overlap the run;
	// WindowsTruncated is set when there were more than the lane keeps.
	Windows          []Window
	WindowsTruncated bool
	States           []Segment
	Calls            []Call
	Events           []Event
}

// Name is "<alloc name>/<task>".
func (l Lane) Name() string { return l.Alloc + "/" + l.Task }

// ScheduleSpan is a schedule in effect from From to To.
type ScheduleSpan struct {
	From, To time.Time
	Schedule *schedule.Schedule
}

// Window is one merged window of a lane's schedule (model/schedule).
type Window struct {
	// Start and End are the window's instants in the task's zone; a zero
	// End never closes.
	Start, End time.Time
	// From and To are the part the timeline shows: the window clipped to
	// the run and to the span its schedule was in effect.
	From, To time.Time
}

// Opens reports whether the window opens inside the part shown.
func (w Window) Opens() bool { return w.Start.Equal(w.From) }

// Closes reports whether the window closes inside the part shown.
func (w Window) Closes() bool { return !w.End.IsZero() && w.End.Equal(w.To) }

// Segment is a task state from From to To, as the trace's task records
// say (a later record ends it).
type Segment struct {
	From, To time.Time
	// State is pending, running or dead; Paused the pause state
	// (scheduled_pause, force_pause, force_run; empty when none).
	State    string
	Paused   string
	Failed   bool
	Restarts uint64
	seq      int
}

// Call is a scenario API call on the lane's task (a pause override, a
// signal, a pause state lookup).
type Call struct {
	At time.Time
	// Op is the scenario op (pause, run, resume, get_pause, signal);
	// State the pause state it sets or read.
	Op    string
	State string
	// Error is the call's error, empty when it succeeded.
	Error string
	seq   int
}

// Override reports whether the call sets a pause state.
func (c Call) Override() bool { return c.Op == "pause" || c.Op == "run" || c.Op == "resume" }

// Event is one task event.
type Event struct {
	At        time.Time
	Type      string
	Display   string
	FailsTask bool
	seq       int
}

// RPC is one step of one node RPC.
type RPC struct {
	At time.Time
	// Op is the method ("Node.UpdateAlloc"); Phase is send, deliver,
	// reply, fail or forward.
	Op, Phase string
	// Detail summarises the payload: the allocs an UpdateAlloc sends,
	// the index of a reply, the error of a failure.
	Detail string
	seq    int
}

// Sync reports whether the RPC is the client's alloc sync.
func (r RPC) Sync() bool { return r.Op == opUpdateAlloc }

// MarkKind classifies a mark.
type MarkKind string

// Mark kinds.
const (
	MarkFault     MarkKind = "fault"
	MarkCrash     MarkKind = "crash"
	MarkRestart   MarkKind = "restart"
	MarkViolation MarkKind = "violation"
)

// Mark is an instant that concerns every lane.
type Mark struct {
	At    time.Time
	Kind  MarkKind
	Label string
	seq   int
}

// Note is a notable thing on no lane: a job registration, an alloc's
// client status, an API call on no alloc, the run's end.
type Note struct {
	At time.Time
	// Subject is what it is about (a job, an alloc name, "api", "world").
	Subject string
	Text    string
	seq     int
}

const opUpdateAlloc = "Node.UpdateAlloc"

// markSeq orders caller marks after every record of their instant.
const markSeq = 1 << 40

// Mark adds a violation mark at at, labelled label (for a violation the
// trace does not hold, such as one a property found). The timeline's
// span stays that of the trace: a mark outside it is drawn at its edge.
func (tl *Timeline) Mark(at time.Time, label string) {
	tl.Marks = append(tl.Marks, Mark{At: at.UTC(), Kind: MarkViolation, Label: label, seq: markSeq + len(tl.Marks)})
	sortMarks(tl.Marks)
}

func sortMarks(ms []Mark) {
	slices.SortStableFunc(ms, func(a, b Mark) int { return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.seq, b.seq)) })
}

// violationAt finds the virtual instant of a violation line
// ("<alloc>/<task> @<RFC 3339 UTC> ...: <what> = <got>, want <want>").
var violationAt = regexp.MustCompile(`@(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)`)

// ViolationAt returns the virtual instant a violation line names, the
// first "@<time>" in it, and whether it had one.
func ViolationAt(violation string) (time.Time, bool) {
	m := violationAt.FindStringSubmatch(violation)
	if m == nil {
		return time.Time{}, false
	}
	at, err := time.Parse(trace.TimeFormat, m[1])
	if err != nil {
		return time.Time{}, false
	}
	return at, true
}
