package nomadcmd

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
)

// pauseCall is one recorded SetPauseState request.
type pauseCall struct {
	AllocID, Task string
	State         structs.TaskScheduleState
}

// fakeAgent is a scripted agent.Server: the real API handler (impl/agent)
// over it, served by httptest on a loopback port, tests the commands
// through the official Go client against the wire format the dev agent
// serves. Pause requests follow the agent's server path (API-7): unknown
// alloc → `Unknown allocation "<id>"` (a 404), unknown task → `Task not
// found` (a 500). Set its exported fields before
// serving; read the recordings through its methods.
type fakeAgent struct {
	// EvalID is the evaluation ID RegisterJob returns.
	EvalID string
	// Place, when set, returns the allocs a registration places (their
	// indexes are filled in); nil places nothing.
	Place func(job *structs.Job) []*structs.Allocation
	// RegisterErr, SetErr and GetErr fail RegisterJob and the pause RPCs.
	RegisterErr, SetErr, GetErr error

	mu       sync.Mutex
	index    uint64
	allocs   []*structs.Allocation
	paused   map[string]structs.TaskScheduleState // "<alloc>/<task>"
	jobs     []*structs.Job
	prefixes []string
	pauses   []pauseCall
}

var _ agent.Server = (*fakeAgent)(nil)

// serveFake starts the real API handler over s with profile on a loopback
// httptest server, closed at the end of the test, and returns its URL.
func serveFake(t testing.TB, s *fakeAgent, profile schedule.Profile) string {
	t.Helper()
	h, err := agent.New(agent.Config{Server: s, Profile: profile})
	if err != nil {
		t.Fatalf("fake agent: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// newAlloc returns a running alloc of job's group, the job holding one
// group with tasks, in that order.
func newAlloc(id, nodeID, jobID, group string, tasks ...string) *structs.Allocation {
	tg := &structs.TaskGroup{Name: group, Count: 1}
	for _, name := range tasks {
		tg.Tasks = append(tg.Tasks, &structs.Task{Name: name, Driver: "mock_driver"})
	}
	job := &structs.Job{ID: jobID, Name: jobID, Namespace: structs.DefaultNamespace, Type: structs.JobTypeService,
		TaskGroups: []*structs.TaskGroup{tg}}
	return &structs.Allocation{
		ID: id, NodeID: nodeID, Namespace: job.Namespace, JobID: jobID, Job: job, TaskGroup: group,
		DesiredStatus: structs.AllocDesiredStatusRun, ClientStatus: structs.AllocClientStatusRunning,
	}
}

// AddAlloc stores allocs as placed.
func (s *fakeAgent) AddAlloc(allocs ...*structs.Allocation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range allocs {
		s.index++
		a = a.Copy()
		a.CreateIndex, a.ModifyIndex, a.AllocModifyIndex = s.index, s.index, s.index
		s.allocs = append(s.allocs, a)
	}
}

// SetPaused stores a task's pause state.
func (s *fakeAgent) SetPaused(allocID, task string, state structs.TaskScheduleState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.paused == nil {
		s.paused = map[string]structs.TaskScheduleState{}
	}
	s.paused[allocID+"/"+task] = state
}

// Jobs are the registered jobs, in order.
func (s *fakeAgent) Jobs() []*structs.Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.jobs)
}

// Prefixes are the prefixes AllocsByPrefix was asked for, in order.
func (s *fakeAgent) Prefixes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.prefixes)
}

// Pauses are the SetPauseState requests, in order.
func (s *fakeAgent) Pauses() []pauseCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.pauses)
}

// RegisterJob records the job and places what Place returns at the next
// index.
func (s *fakeAgent) RegisterJob(job *structs.Job) (string, uint64, uint64, error) {
	if s.RegisterErr != nil {
		return "", 0, 0, s.RegisterErr
	}
	var placed []*structs.Allocation
	if s.Place != nil {
		placed = s.Place(job)
	}
	s.mu.Lock()
	s.jobs = append(s.jobs, job.Copy())
	s.index++
	idx := s.index
	for _, a := range placed {
		a = a.Copy()
		a.CreateIndex, a.ModifyIndex, a.AllocModifyIndex = idx, idx, idx
		s.allocs = append(s.allocs, a)
	}
	s.mu.Unlock()
	return s.EvalID, idx, idx, nil
}

// JobAllocations returns the job's allocs.
func (s *fakeAgent) JobAllocations(jobID string, _ bool) []*structs.Allocation {
	return s.filter(func(a *structs.Allocation) bool { return a.JobID == jobID })
}

// Alloc returns one alloc.
func (s *fakeAgent) Alloc(id string) (*structs.Allocation, bool) {
	out := s.filter(func(a *structs.Allocation) bool { return a.ID == id })
	if len(out) == 0 {
		return nil, false
	}
	return out[0], true
}

// AllocsByPrefix records prefix and returns the allocs it starts.
func (s *fakeAgent) AllocsByPrefix(prefix string) []*structs.Allocation {
	s.mu.Lock()
	s.prefixes = append(s.prefixes, prefix)
	s.mu.Unlock()
	return s.filter(func(a *structs.Allocation) bool { return strings.HasPrefix(a.ID, prefix) })
}

func (s *fakeAgent) filter(keep func(*structs.Allocation) bool) []*structs.Allocation {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*structs.Allocation
	for _, a := range s.allocs {
		if keep(a) {
			out = append(out, a.Copy())
		}
	}
	return out
}

// RPC answers ClientAllocations.SetPauseState and GetPauseState.
func (s *fakeAgent) RPC(method string, args, reply any) error {
	switch method {
	case structs.RPCServerSetPauseState:
		req := args.(*structs.AllocPauseRequest)
		if s.SetErr != nil {
			return s.SetErr
		}
		key, err := s.task(req.AllocID, req.Task)
		if err != nil {
			return err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.pauses = append(s.pauses, pauseCall{AllocID: req.AllocID, Task: req.Task, State: req.ScheduleState})
		if s.paused == nil {
			s.paused = map[string]structs.TaskScheduleState{}
		}
		state := req.ScheduleState
		if state == structs.TaskScheduleStateScheduleResume {
			state = structs.TaskScheduleStateRun
		}
		s.paused[key] = state
		reply.(*structs.GenericResponse).Index = 0
		return nil
	case structs.RPCServerGetPauseState:
		req := args.(*structs.AllocGetPauseStateRequest)
		if s.GetErr != nil {
			return s.GetErr
		}
		key, err := s.task(req.AllocID, req.Task)
		if err != nil {
			return err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		reply.(*structs.AllocGetPauseStateResponse).ScheduleState = s.paused[key]
		return nil
	}
	return fmt.Errorf("fake agent: unexpected RPC %s", method)
}

// task checks the alloc and the task as the client would (API-7, PAUSE-2).
func (s *fakeAgent) task(allocID, task string) (string, error) {
	a, ok := s.Alloc(allocID)
	if !ok {
		return "", fmt.Errorf("Unknown allocation %q", allocID)
	}
	if tg := a.LookupTaskGroup(); tg != nil {
		for _, t := range tg.Tasks {
			if t.Name == task {
				return allocID + "/" + task, nil
			}
		}
	}
	return "", errors.New("Task not found")
}
