package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/trace"
)

// Registration outcomes, as traced.
const (
	RegisterPlaced      = "placed"
	RegisterInPlace     = "in_place"
	RegisterDestructive = "destructive"
)

// ValidateJob is the server's admission of a job: an ID (API-4), then
// structs.Job.Validate (DATA-3, SCHED-1; the rule lives in model/structs).
func ValidateJob(job *structs.Job, profile schedule.Profile) error {
	if job == nil || job.ID == "" {
		return errors.New(structs.MsgJobNoID)
	}
	return job.Validate(profile)
}

// RegisterJob admits job (ValidateJob) and places or updates its allocs
// (package doc). It returns the allocs placed or updated in place, sorted
// by ID. It records no evaluation (RegisterJobEval does).
func (s *Server) RegisterJob(job *structs.Job) ([]*structs.Allocation, error) {
	r, err := s.RegisterJobEval(job, nil)
	return r.Allocs, err
}

// Registration is what a registration did.
type Registration struct {
	// Allocs are the allocs placed or updated in place, sorted by ID.
	Allocs []*structs.Allocation
	// Index is the registration's log index.
	Index uint64
	// Job is the stamp of the job version registered.
	Job records.JobStamp
	// Eval is the evaluation recorded (zero without newEvalID).
	Eval records.Eval
}

// RegisterJobEval is RegisterJob that also records a complete
// `job-register` evaluation whose ID newEvalID draws (called once, under
// the server's lock, only when the registration succeeds; nil records
// none), as the placing eval of every alloc placed or updated in place.
func (s *Server) RegisterJobEval(job *structs.Job, newEvalID func() string) (Registration, error) {
	job, err := s.admit(job)
	if err != nil {
		return Registration{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.placementNode()
	if n == nil {
		return Registration{}, fmt.Errorf("no node to place job %q on", job.ID)
	}
	return s.registerOn(job, n, newEvalID), nil
}

// admit returns a canonical copy of job, or why it may not register (the
// rejection traced).
func (s *Server) admit(job *structs.Job) (*structs.Job, error) {
	job = job.Copy()
	job.Canonicalize()
	if err := ValidateJob(job, s.cfg.Profile); err != nil {
		s.emit(trace.KindJob, "", "register", "rejected", map[string]string{"job": jobID(job), "error": err.Error()})
		return nil, fmt.Errorf("register job %q: %w", jobID(job), err)
	}
	return job, nil
}

// registerOn registers an admitted job, with the lock held: in place
// when only its task schedules changed (a stopped job is placed anew),
// else its old allocs stopped and new ones placed on node n. newEvalID
// (nil: none) is drawn once the job is stamped; the eval marks every
// alloc placed or updated in place and is recorded. The allocs it stores
// share job, which becomes the job's record: stored allocs and records
// are copy-on-write (edit), nothing changes a job once stored, and what
// leaves the server is a copy (the Registration's allocs, Alloc, Allocs,
// Job) or read-only (SharedAlloc).
func (s *Server) registerOn(job *structs.Job, n *node, newEvalID func() string) Registration {
	rec, exists := s.jobs[job.ID]
	var out []*structs.Allocation
	outcome := RegisterPlaced
	var idx uint64
	// A job DeregisterJob stopped is placed anew, whatever changed.
	inPlace := exists && !rec.Stop && onlySchedulesDiffer(rec.Job, job)
	if inPlace {
		outcome = RegisterInPlace
		idx = s.bump(s.jobNodes(job.ID)...)
	} else {
		if exists {
			outcome = RegisterDestructive
		}
		idx = s.bump(append(s.jobNodes(job.ID), n.id)...)
	}
	stamp := s.stampRegistration(job, idx)
	evalID := ""
	if newEvalID != nil {
		evalID = newEvalID()
	}
	if inPlace {
		for _, a := range s.jobAllocs(job.ID) {
			if a.ServerTerminal() {
				continue
			}
			a = s.edit(a)
			a.Job = job
			a.AllocModifyIndex, a.ModifyIndex = idx, idx
			s.allocRecs[a.ID] = records.Alloc{EvalID: evalID, Job: stamp}
			out = append(out, a.Copy())
		}
	} else {
		s.stopAllocs(job.ID, idx)
		if !job.IsParameterized() { // a template: its dispatches run
			out = s.place(job, n.id, idx, records.Alloc{EvalID: evalID, Job: stamp})
		}
	}
	reg := Registration{Allocs: out, Index: idx, Job: stamp}
	if evalID != "" {
		reg.Eval = s.recordEval(evalID, job, records.EvalTriggerJobRegister, stamp.JobModifyIndex, idx)
	}
	ids := make([]string, len(out))
	for i, a := range out {
		ids[i] = a.ID
	}
	s.emit(trace.KindJob, "", "register", outcome, map[string]any{"job": job.ID, "index": s.index, "allocs": ids})
	return reg
}

func jobID(j *structs.Job) string {
	if j == nil {
		return ""
	}
	return j.ID
}

// place creates Count allocs per group of job on nodeID at index idx,
// recorded as placed by rec, with the lock held; they are returned sorted
// by ID.
func (s *Server) place(job *structs.Job, nodeID string, idx uint64, rec records.Alloc) []*structs.Allocation {
	now := s.cfg.Clock.Now().UnixNano()
	var out []*structs.Allocation
	for _, tg := range job.TaskGroups {
		if tg == nil {
			continue
		}
		for i := 0; i < tg.Count; i++ {
			a := &structs.Allocation{
				ID: s.newID(), Name: fmt.Sprintf("%s.%s[%d]", job.ID, tg.Name, i),
				NodeID: nodeID, Namespace: job.Namespace, JobID: job.ID, Job: job,
				TaskGroup: tg.Name, DesiredStatus: structs.AllocDesiredStatusRun,
				ClientStatus: structs.AllocClientStatusPending,
				CreateIndex:  idx, ModifyIndex: idx, AllocModifyIndex: idx,
				CreateTime: now, ModifyTime: now,
			}
			s.allocs[a.ID] = a
			s.byNode[nodeID] = append(s.byNode[nodeID], a.ID)
			s.byJob[job.ID] = append(s.byJob[job.ID], a.ID)
			s.allocRecs[a.ID] = rec
			out = append(out, a.Copy())
		}
	}
	slices.SortFunc(out, func(a, b *structs.Allocation) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// StopJob sets every alloc of the job to desired stop. It neither marks
// the job stopped nor records an evaluation (DeregisterJob does both), so
// a simulator's own stop leaves the job's registration behaviour, and its
// trace, as they were.
func (s *Server) StopJob(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.jobs[id]; !ok {
		return fmt.Errorf("job %q not found", id)
	}
	idx := s.bump(s.jobNodes(id)...)
	stopped := s.stopAllocs(id, idx)
	s.emit(trace.KindJob, "", "stop", "", map[string]any{"job": id, "index": idx, "allocs": stopped})
	return nil
}

// stopAllocs sets the job's running allocs to desired stop at idx, with
// the lock held, and returns their IDs, sorted.
func (s *Server) stopAllocs(jobID string, idx uint64) []string {
	var ids []string
	for _, a := range s.jobAllocs(jobID) {
		if a.DesiredStatus != structs.AllocDesiredStatusRun {
			continue
		}
		a = s.edit(a)
		a.DesiredStatus = structs.AllocDesiredStatusStop
		a.AllocModifyIndex, a.ModifyIndex = idx, idx
		ids = append(ids, a.ID)
	}
	return ids
}

// jobAllocs returns the job's stored allocs sorted by ID (not copies),
// with the lock held.
func (s *Server) jobAllocs(jobID string) []*structs.Allocation {
	ids := s.byJob[jobID]
	out := make([]*structs.Allocation, 0, len(ids))
	for _, id := range ids {
		out = append(out, s.allocs[id])
	}
	slices.SortFunc(out, func(a, b *structs.Allocation) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// jobNodes returns the nodes the job's allocs are on, sorted.
func (s *Server) jobNodes(jobID string) []string {
	var out []string
	for _, a := range s.jobAllocs(jobID) {
		if !slices.Contains(out, a.NodeID) {
			out = append(out, a.NodeID)
		}
	}
	slices.Sort(out)
	return out
}

// newID draws an ID from the server's source, with the lock held.
func (s *Server) newID() string { return seeds.ID(s.cfg.Rand) }

// onlySchedulesDiffer reports whether two jobs are equal but for task
// Schedule blocks (PAUSE-7: such an update is in place).
func onlySchedulesDiffer(a, b *structs.Job) bool {
	strip := func(j *structs.Job) []byte {
		c := j.Copy()
		for _, tg := range c.TaskGroups {
			if tg == nil {
				continue
			}
			for _, t := range tg.Tasks {
				if t != nil {
					t.Schedule = nil
				}
			}
		}
		b, err := json.Marshal(c)
		if err != nil {
			return nil
		}
		return b
	}
	sa, sb := strip(a), strip(b)
	return sa != nil && bytes.Equal(sa, sb)
}
