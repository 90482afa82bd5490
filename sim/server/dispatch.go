package server

import (
	"errors"
	"fmt"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/trace"
)

// ErrJobNotFound is wrapped by DispatchJob's error for an unknown job.
var ErrJobNotFound = errors.New("job not found")

// DispatchJob dispatches the parameterized job parentID with meta and
// payload (package doc): an unknown job is an error wrapping
// ErrJobNotFound, a dispatch the job does not accept the first failure of
// ValidateDispatch; else the child job is registered and placed. It
// returns the child and the allocs placed (RegisterJob). The payload is
// checked, not kept: tasks have no dispatch_payload here.
func (s *Server) DispatchJob(parentID string, meta map[string]string, payload []byte) (*structs.Job, []*structs.Allocation, error) {
	child, reg, err := s.DispatchJobEval(parentID, meta, payload, nil)
	return child, reg.Allocs, err
}

// DispatchJobEval is DispatchJob that records the child's registration
// evaluation as RegisterJobEval does (newEvalID nil records none).
func (s *Server) DispatchJobEval(parentID string, meta map[string]string, payload []byte, newEvalID func() string) (*structs.Job, Registration, error) {
	s.mu.Lock()
	rec, ok := s.jobs[parentID]
	if !ok {
		s.mu.Unlock()
		return nil, Registration{}, fmt.Errorf("%w: %q", ErrJobNotFound, parentID)
	}
	parent := rec.Job
	if err := parent.ValidateDispatch(meta, payload); err != nil {
		s.mu.Unlock()
		s.emit(trace.KindJob, "", "dispatch", "rejected", map[string]string{"job": parentID, "error": err.Error()})
		return nil, Registration{}, err
	}
	var id string
	for id == "" || s.jobs[id] != nil {
		id = structs.DispatchedID(parentID, s.cfg.Clock.Now(), fmt.Sprintf("%08x", s.cfg.Rand.Uint32()))
	}
	child := parent.Dispatch(id, meta)
	s.mu.Unlock()
	s.emit(trace.KindJob, "", "dispatch", "created", map[string]string{"job": parentID, "child": id})
	reg, err := s.RegisterJobEval(child, newEvalID)
	if err != nil {
		return nil, Registration{}, err
	}
	return child, reg, nil
}
