package apiconv

import (
	"maps"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// TaskState is api.TaskState plus Paused, the stored pause state that
// allocsim adds to Nomad's task state (DATA-6, PAUSE-1). Its JSON is
// api.TaskState's plus "Paused".
type TaskState struct {
	api.TaskState
	Paused string `json:"Paused"`
}

// TaskStateToAPI converts a domain task state to its wire form. Times are
// copied as instants; JSON renders them in RFC 3339 (DATA-1).
func TaskStateToAPI(s *structs.TaskState) *TaskState {
	if s == nil {
		return nil
	}
	out := &TaskState{
		TaskState: api.TaskState{
			State:       s.State,
			Failed:      s.Failed,
			Restarts:    s.Restarts,
			LastRestart: s.LastRestart,
			StartedAt:   s.StartedAt,
			FinishedAt:  s.FinishedAt,
		},
		Paused: string(s.Paused),
	}
	if s.Events != nil {
		out.Events = make([]*api.TaskEvent, len(s.Events))
		for i, e := range s.Events {
			out.Events[i] = TaskEventToAPI(e)
		}
	}
	return out
}

// Domain converts the wire form back, Paused included.
func (s *TaskState) Domain() *structs.TaskState {
	if s == nil {
		return nil
	}
	out := TaskStateFromAPI(&s.TaskState)
	out.Paused = structs.TaskScheduleState(s.Paused)
	return out
}

// TaskStateFromAPI converts an API task state; it has no Paused, so the
// result's Paused is "".
func TaskStateFromAPI(s *api.TaskState) *structs.TaskState {
	if s == nil {
		return nil
	}
	out := &structs.TaskState{
		State:       s.State,
		Failed:      s.Failed,
		Restarts:    s.Restarts,
		LastRestart: s.LastRestart,
		StartedAt:   s.StartedAt,
		FinishedAt:  s.FinishedAt,
	}
	if s.Events != nil {
		out.Events = make([]*structs.TaskEvent, len(s.Events))
		for i, e := range s.Events {
			out.Events[i] = TaskEventFromAPI(e)
		}
	}
	return out
}

// TaskEventToAPI converts a domain task event (DATA-7). Time stays Unix
// nanoseconds, KillTimeout nanoseconds (DATA-1).
func TaskEventToAPI(e *structs.TaskEvent) *api.TaskEvent {
	if e == nil {
		return nil
	}
	return &api.TaskEvent{
		Type:             e.Type,
		Time:             e.Time,
		Message:          e.Message,
		DisplayMessage:   e.DisplayMessage,
		Details:          maps.Clone(e.Details),
		FailsTask:        e.FailsTask,
		RestartReason:    e.RestartReason,
		SetupError:       e.SetupError,
		DriverError:      e.DriverError,
		ExitCode:         e.ExitCode,
		Signal:           e.Signal,
		KillReason:       e.KillReason,
		KillTimeout:      e.KillTimeout,
		KillError:        e.KillError,
		StartDelay:       e.StartDelay,
		FailedSibling:    e.FailedSibling,
		TaskSignal:       e.TaskSignal,
		TaskSignalReason: e.TaskSignalReason,
		ValidationError:  e.ValidationError,
	}
}

// TaskEventFromAPI converts an API task event; API fields the domain does
// not model (DriverMessage, DownloadError, disk and Vault fields,
// GenericSource) are dropped.
func TaskEventFromAPI(e *api.TaskEvent) *structs.TaskEvent {
	if e == nil {
		return nil
	}
	return &structs.TaskEvent{
		Type:             e.Type,
		Time:             e.Time,
		Message:          e.Message,
		DisplayMessage:   e.DisplayMessage,
		Details:          maps.Clone(e.Details),
		FailsTask:        e.FailsTask,
		RestartReason:    e.RestartReason,
		SetupError:       e.SetupError,
		DriverError:      e.DriverError,
		ExitCode:         e.ExitCode,
		Signal:           e.Signal,
		KillReason:       e.KillReason,
		KillTimeout:      e.KillTimeout,
		KillError:        e.KillError,
		StartDelay:       e.StartDelay,
		FailedSibling:    e.FailedSibling,
		TaskSignal:       e.TaskSignal,
		TaskSignalReason: e.TaskSignalReason,
		ValidationError:  e.ValidationError,
	}
}

// taskStatesToAPI converts a task state map to both forms: the wire map
// (with Paused) and the plain API map.
func taskStatesToAPI(in map[string]*structs.TaskState) (map[string]*TaskState, map[string]*api.TaskState) {
	if in == nil {
		return nil, nil
	}
	wire := make(map[string]*TaskState, len(in))
	plain := make(map[string]*api.TaskState, len(in))
	for name, s := range in {
		wire[name] = TaskStateToAPI(s)
		plain[name] = nil
		if s != nil {
			plain[name] = &TaskStateToAPI(s).TaskState // its own copy
		}
	}
	return wire, plain
}

func taskStatesFromWire(in map[string]*TaskState) map[string]*structs.TaskState {
	if in == nil {
		return nil
	}
	out := make(map[string]*structs.TaskState, len(in))
	for name, s := range in {
		out[name] = s.Domain()
	}
	return out
}

func taskStatesFromAPI(in map[string]*api.TaskState) map[string]*structs.TaskState {
	if in == nil {
		return nil
	}
	out := make(map[string]*structs.TaskState, len(in))
	for name, s := range in {
		out[name] = TaskStateFromAPI(s)
	}
	return out
}
