package server

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/trace"
)

// ErrJobNotFound is wrapped by DispatchJob's error for an unknown job.
var ErrJobNotFound = errors.New("job not found")

// DispatchJob dispatches the parameterized job parentID with meta and
// payload (package doc): an unknown job is an error wrapping
// ErrJobNotFound, a dispatch the job does not accept the first failure of
// validateDispatch; else the child job is registered and placed. It
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
	if err := validateDispatch(parent, meta, payload); err != nil {
		s.mu.Unlock()
		s.emit(trace.KindJob, "", "dispatch", "rejected", map[string]string{"job": parentID, "error": err.Error()})
		return nil, Registration{}, err
	}
	var id string
	for id == "" || s.jobs[id] != nil {
		id = fmt.Sprintf("%s/dispatch-%d-%08x", parentID, s.cfg.Clock.Now().Unix(), s.cfg.Rand.Uint32())
	}
	child := dispatched(parent, id, meta)
	s.mu.Unlock()
	s.emit(trace.KindJob, "", "dispatch", "created", map[string]string{"job": parentID, "child": id})
	reg, err := s.RegisterJobEval(child, newEvalID)
	if err != nil {
		return nil, Registration{}, err
	}
	return child, reg, nil
}

// dispatchPayloadLimit is the largest dispatch payload, in bytes (16 KiB,
// as `nomad job dispatch` documents).
const dispatchPayloadLimit = 16 * 1024

// validateDispatch checks a dispatch of j with meta and payload, in
// order, with Nomad's texts: j is a parameterized template; the payload
// against its requirement and size; every required meta key given; no
// key that is neither required nor optional (keys listed sorted).
func validateDispatch(j *structs.Job, meta map[string]string, payload []byte) error {
	if !j.IsParameterized() {
		return fmt.Errorf("Specified job %q is not a parameterized job", j.ID)
	}
	p := j.ParameterizedJob
	switch {
	case len(payload) > dispatchPayloadLimit:
		return fmt.Errorf("Payload exceeds maximum size; %d > %d", len(payload), dispatchPayloadLimit)
	case p.Payload == structs.DispatchPayloadForbidden && len(payload) > 0:
		return errors.New("Payload is not permitted")
	case p.Payload == structs.DispatchPayloadRequired && len(payload) == 0:
		return errors.New("Payload is not provided but required by parameterized job")
	}
	var missing, unpermitted []string
	for _, k := range p.MetaRequired {
		if _, ok := meta[k]; !ok {
			missing = append(missing, k)
		}
	}
	for k := range meta {
		if !slices.Contains(p.MetaRequired, k) && !slices.Contains(p.MetaOptional, k) {
			unpermitted = append(unpermitted, k)
		}
	}
	slices.Sort(missing)
	slices.Sort(unpermitted)
	switch {
	case len(missing) > 0:
		return fmt.Errorf("Dispatch did not provide required meta keys: %v", missing)
	case len(unpermitted) > 0:
		return fmt.Errorf("Dispatch included unpermitted metadata keys: %v", unpermitted)
	}
	return nil
}

// dispatched is the child job of a dispatch of j (already validated): a
// copy with ID and Name id, ParentID j's ID, Dispatched set, and meta
// merged over j's Meta. j is not changed.
func dispatched(j *structs.Job, id string, meta map[string]string) *structs.Job {
	c := j.Copy()
	c.ID, c.Name, c.ParentID, c.Dispatched = id, id, j.ID, true
	if len(meta) > 0 {
		if c.Meta == nil {
			c.Meta = make(map[string]string, len(meta))
		}
		maps.Copy(c.Meta, meta)
	}
	return c
}
