package structs

import (
	"slices"
	"time"
)

// Task states (DATA-6).
const (
	TaskStatePending = "pending"
	TaskStateRunning = "running"
	TaskStateDead    = "dead"
)

// MaxTaskEvents is how many events a TaskState keeps, newest last (DATA-6).
const MaxTaskEvents = 10

// TaskState is DATA-6.
type TaskState struct {
	State       string            `json:"State"`
	Failed      bool              `json:"Failed"`
	Restarts    uint64            `json:"Restarts"`
	LastRestart time.Time         `json:"LastRestart"`
	StartedAt   time.Time         `json:"StartedAt"`
	FinishedAt  time.Time         `json:"FinishedAt"`
	Events      []*TaskEvent      `json:"Events"`
	Paused      TaskScheduleState `json:"Paused"`
}

// NewTaskState returns a pending task state with no events.
func NewTaskState() *TaskState { return &TaskState{State: TaskStatePending} }

// AppendEvent applies DATA-6's bookkeeping and appends e (whose
// DisplayMessage is derived first, DATA-8): a FailsTask event sets Failed
// for good; a Restarting event increments Restarts and sets LastRestart to
// the event's time; only the newest MaxTaskEvents are kept.
func (s *TaskState) AppendEvent(e *TaskEvent) {
	e.PopulateDisplayMessage()
	if e.FailsTask {
		s.Failed = true
	}
	if e.Type == TaskRestarting {
		s.Restarts++
		s.LastRestart = time.Unix(0, e.Time).UTC()
	}
	s.Events = append(s.Events, e)
	if n := len(s.Events); n > MaxTaskEvents {
		kept := make([]*TaskEvent, MaxTaskEvents)
		copy(kept, s.Events[n-MaxTaskEvents:])
		s.Events = kept
	}
}

// SetState moves the task to state at instant at (DATA-6): entering
// running sets StartedAt; entering dead sets FinishedAt once.
func (s *TaskState) SetState(state string, at time.Time) {
	if state == TaskStateRunning && s.State != TaskStateRunning {
		s.StartedAt = at.UTC()
	}
	if state == TaskStateDead && s.FinishedAt.IsZero() {
		s.FinishedAt = at.UTC()
	}
	s.State = state
}

// Successful reports whether the task finished dead and not failed.
func (s *TaskState) Successful() bool { return s.State == TaskStateDead && !s.Failed }

// Copy returns a deep copy. The copied events are allocated together,
// in one array (task states are copied often: one allocation instead of
// one an event).
func (s *TaskState) Copy() *TaskState {
	if s == nil {
		return nil
	}
	out := *s
	if s.Events != nil {
		out.Events = make([]*TaskEvent, len(s.Events))
		events := make([]TaskEvent, len(s.Events))
		for i, e := range s.Events {
			if e != nil {
				e.copyTo(&events[i])
				out.Events[i] = &events[i]
			}
		}
	}
	return &out
}

// Equal is DATA-6's task state equality, used by sync priority (SYNC-2):
// State, Failed, Restarts, LastRestart, StartedAt, FinishedAt, Paused and
// the events' Type, Time, Message, DisplayMessage and Details.
func (s *TaskState) Equal(o *TaskState) bool {
	if s == nil || o == nil {
		return s == o
	}
	if s.State != o.State || s.Failed != o.Failed || s.Restarts != o.Restarts ||
		!s.LastRestart.Equal(o.LastRestart) || !s.StartedAt.Equal(o.StartedAt) ||
		!s.FinishedAt.Equal(o.FinishedAt) || s.Paused != o.Paused ||
		len(s.Events) != len(o.Events) {
		return false
	}
	for i := range s.Events {
		if !s.Events[i].equalForSync(o.Events[i]) {
			return false
		}
	}
	return true
}

func (e *TaskEvent) equalForSync(o *TaskEvent) bool {
	if e == nil || o == nil {
		return e == o
	}
	if e.Type != o.Type || e.Time != o.Time || e.Message != o.Message ||
		e.DisplayMessage != o.DisplayMessage || len(e.Details) != len(o.Details) {
		return false
	}
	for k, v := range e.Details {
		if ov, ok := o.Details[k]; !ok || ov != v {
			return false
		}
	}
	return true
}

// TaskStatesEqual compares two task state maps with TaskState.Equal.
func TaskStatesEqual(a, b map[string]*TaskState) bool {
	if len(a) != len(b) {
		return false
	}
	for name, sa := range a {
		sb, ok := b[name]
		if !ok || !sa.Equal(sb) {
			return false
		}
	}
	return true
}

// AppendedEvents returns the events of cur appended since the snapshot
// old of the same task state. Events are appended in time order and only
// the newest MaxTaskEvents are kept (DATA-6), so the new ones are those
// after old's last instant, plus those at that instant beyond the ones
// old had there. When the full window dropped some of old's events at
// that instant too (cur starts at it), the ones kept are the longest
// tail of old's that cur starts with.
func AppendedEvents(old, cur []*TaskEvent) []*TaskEvent {
	if len(old) == 0 {
		return cur
	}
	last := old[len(old)-1].Time
	sameOld := 0
	for _, e := range old {
		if e.Time == last {
			sameOld++
		}
	}
	if len(cur) >= MaxTaskEvents && cur[0].Time == last {
		sameOld = keptTail(old[len(old)-sameOld:], cur)
	}
	sameCur := 0
	var out []*TaskEvent
	for _, e := range cur {
		switch {
		case e.Time > last:
			out = append(out, e)
		case e.Time == last:
			sameCur++
			if sameCur > sameOld {
				out = append(out, e)
			}
		}
	}
	return out
}

// keptTail is the length of the longest tail of tail (old's events at
// its last instant) that cur starts with.
func keptTail(tail, cur []*TaskEvent) int {
	for n := min(len(tail), len(cur)); n > 0; n-- {
		if slices.EqualFunc(tail[len(tail)-n:], cur[:n], sameEvent) {
			return n
		}
	}
	return 0
}

// sameEvent compares what tells two events apart in one task's list.
func sameEvent(a, b *TaskEvent) bool {
	return a.Type == b.Type && a.Time == b.Time && a.DisplayMessage == b.DisplayMessage
}
