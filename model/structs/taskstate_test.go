package structs

import (
	"fmt"
	"testing"
	"time"

	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

func TestAppendEventBookkeeping(t *testing.T) {
	s := NewTaskState()
	for i := 0; i < 12; i++ {
		s.AppendEvent(NewTaskEvent(TaskRestarting, t0.Add(time.Duration(i)*time.Second)).SetStartDelay(0))
	}
	must.Len(t, MaxTaskEvents, s.Events)
	must.EqOp(t, uint64(12), s.Restarts)
	must.True(t, s.LastRestart.Equal(t0.Add(11*time.Second)))
	must.EqOp(t, t0.Add(2*time.Second).UnixNano(), s.Events[0].Time, must.Sprint("oldest kept is the third"))
	must.False(t, s.Failed)
	s.AppendEvent(NewTaskEvent(TaskNotRestarting, t0).SetFailsTask())
	must.True(t, s.Failed)
	s.AppendEvent(NewTaskEvent(TaskStarted, t0))
	must.True(t, s.Failed, must.Sprint("Failed is for good"))
	must.EqOp(t, "Task started by client", s.Events[len(s.Events)-1].DisplayMessage)
}

func TestSetState(t *testing.T) {
	s := NewTaskState()
	s.SetState(TaskStateRunning, t0)
	must.True(t, s.StartedAt.Equal(t0))
	s.SetState(TaskStateRunning, t0.Add(time.Hour))
	must.True(t, s.StartedAt.Equal(t0), must.Sprint("staying running keeps StartedAt"))
	s.SetState(TaskStatePending, t0.Add(time.Hour))
	s.SetState(TaskStateRunning, t0.Add(2*time.Hour))
	must.True(t, s.StartedAt.Equal(t0.Add(2*time.Hour)), must.Sprint("re-entering running sets StartedAt"))
	s.SetState(TaskStateDead, t0.Add(3*time.Hour))
	s.SetState(TaskStateDead, t0.Add(4*time.Hour))
	must.True(t, s.FinishedAt.Equal(t0.Add(3*time.Hour)), must.Sprint("FinishedAt set once"))
	must.True(t, s.Successful())
}

func TestTaskStateEqual(t *testing.T) {
	base := func() *TaskState {
		s := NewTaskState()
		s.AppendEvent(NewTaskEvent(TaskReceived, t0))
		return s
	}
	mutations := map[string]func(*TaskState){
		"state":       func(s *TaskState) { s.State = TaskStateRunning },
		"failed":      func(s *TaskState) { s.Failed = true },
		"restarts":    func(s *TaskState) { s.Restarts++ },
		"lastrestart": func(s *TaskState) { s.LastRestart = t0 },
		"startedat":   func(s *TaskState) { s.StartedAt = t0 },
		"finishedat":  func(s *TaskState) { s.FinishedAt = t0 },
		"paused":      func(s *TaskState) { s.Paused = TaskScheduleStateForcePause },
		"event added": func(s *TaskState) { s.AppendEvent(NewTaskEvent(TaskStarted, t0)) },
		"event time":  func(s *TaskState) { s.Events[0].Time++ },
		"event msg":   func(s *TaskState) { s.Events[0].Message = "x" },
		"event disp":  func(s *TaskState) { s.Events[0].DisplayMessage = "x" },
		"event type":  func(s *TaskState) { s.Events[0].Type = TaskStarted },
		"details":     func(s *TaskState) { s.Events[0].Details["k"] = "v" },
	}
	must.True(t, base().Equal(base()))
	for name, mut := range mutations {
		t.Run(name, func(t *testing.T) {
			b := base()
			mut(b)
			must.False(t, base().Equal(b))
			must.False(t, TaskStatesEqual(map[string]*TaskState{"a": base()}, map[string]*TaskState{"a": b}))
		})
	}
	// Fields outside DATA-6's equality do not count.
	b := base()
	b.Events[0].ExitCode = 7
	must.True(t, base().Equal(b))
	must.True(t, (*TaskState)(nil).Equal(nil))
	must.False(t, base().Equal(nil))
	must.False(t, TaskStatesEqual(map[string]*TaskState{"a": base()}, map[string]*TaskState{"b": base()}))
	must.False(t, TaskStatesEqual(map[string]*TaskState{"a": base()}, nil))
}

// TestTaskStateCopyIsDeep: mutating a copy never changes the original.
func TestTaskStateCopyIsDeep(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s := NewTaskState()
		n := rapid.IntRange(0, 15).Draw(rt, "events")
		for i := 0; i < n; i++ {
			s.AppendEvent(NewTaskEvent(TaskRestarting, t0.Add(time.Duration(i))).SetMessage(fmt.Sprint(i)))
		}
		c := s.Copy()
		must.True(rt, s.Equal(c))
		for _, e := range c.Events {
			e.Details["message"] = "mut"
			e.Message = "mut"
		}
		c.AppendEvent(NewTaskEvent(TaskStarted, t0))
		if n > 0 {
			must.False(rt, s.Equal(c))
			must.NotEq(rt, "mut", s.Events[0].Message)
		}
	})
}
