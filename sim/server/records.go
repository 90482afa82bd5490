package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/trace"
)

// ErrAllocNotFound is wrapped by StopAlloc's error for an unknown alloc.
var ErrAllocNotFound = errors.New("alloc not found")

// stampRegistration records job as registered at idx, with the lock held,
// and returns the stamp of the version it now is: a new or purged job
// starts at version 0; a registration that changes the job, or restarts a
// stopped one, is a new version; an identical one keeps its version (and
// submit time).
func (s *Server) stampRegistration(job *structs.Job, idx uint64) records.JobStamp {
	now := s.cfg.Clock.Now().UnixNano()
	rec, ok := s.jobs[job.ID]
	switch {
	case !ok:
		rec = &records.Job{JobStamp: records.JobStamp{SubmitTime: now, CreateIndex: idx, JobModifyIndex: idx}}
		s.jobs[job.ID] = rec
	case rec.Stop || !sameJob(rec.Job, job):
		rec.Version++
		rec.SubmitTime, rec.JobModifyIndex = now, idx
	}
	rec.Job, rec.Stop, rec.ModifyIndex = job, false, idx
	return rec.JobStamp
}

// stampStop marks a registered job stopped at idx, with the lock held: a
// running job's stop is a new version, as in Nomad.
func (s *Server) stampStop(id string, idx uint64) {
	rec, ok := s.jobs[id]
	if !ok {
		return
	}
	if !rec.Stop {
		rec.Stop = true
		rec.Version++
		rec.SubmitTime, rec.JobModifyIndex = s.cfg.Clock.Now().UnixNano(), idx
	}
	rec.ModifyIndex = idx
}

// sameJob compares two jobs by their JSON.
func sameJob(a, b *structs.Job) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// recordEval records a complete evaluation of job created at idx, with
// the lock held, and returns it.
func (s *Server) recordEval(id string, job *structs.Job, trigger string, jobModifyIndex, idx uint64) records.Eval {
	now := s.cfg.Clock.Now().UnixNano()
	ev := &records.Eval{
		ID: id, Priority: records.DefaultJobPriority, TriggeredBy: trigger,
		JobModifyIndex: jobModifyIndex, Status: records.EvalStatusComplete,
		CreateIndex: idx, ModifyIndex: idx, CreateTime: now, ModifyTime: now,
	}
	if job != nil {
		ev.Namespace, ev.Type, ev.JobID = job.Namespace, job.Type, job.ID
	}
	s.evalRecs = append(s.evalRecs, ev)
	return *ev
}

// Deregistration is what a job deregistration did.
type Deregistration struct {
	// Eval is the `job-deregister` evaluation (zero without newEvalID).
	Eval records.Eval
	// Index is the deregistration's log index; JobModifyIndex the stopped
	// version's.
	Index          uint64
	JobModifyIndex uint64
}

// DeregisterJob stops a job (Nomad's job deregistration): every alloc of
// it still to run goes to desired stop, the job is marked stopped (a new
// version), and with purge it is removed (its allocs stay, stopped,
// listed by alloc until the end of the run). It records a complete
// `job-deregister` evaluation whose ID newEvalID draws (nil records none).
// An unknown job is an error wrapping ErrJobNotFound.
func (s *Server) DeregisterJob(id string, purge bool, newEvalID func() string) (Deregistration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec, ok := s.jobs[id]
	if !ok {
		return Deregistration{}, fmt.Errorf("%w: %q", ErrJobNotFound, id)
	}
	idx := s.bump(s.jobNodes(id)...)
	stopped := s.stopAllocs(id, idx)
	s.stampStop(id, idx)
	out := Deregistration{Index: idx, JobModifyIndex: rec.JobModifyIndex}
	if newEvalID != nil {
		out.Eval = s.recordEval(newEvalID(), rec.Job, records.EvalTriggerJobDeregister, rec.JobModifyIndex, idx)
	}
	if purge {
		delete(s.jobs, id)
	}
	s.emit(trace.KindJob, "", "deregister", "", map[string]any{"job": id, "index": idx, "allocs": stopped, "purge": purge})
	return out, nil
}

// StopAlloc sets one alloc to desired stop (Nomad's alloc stop, without
// the replacement a scheduler would place) and records a complete
// `alloc-stop` evaluation whose ID newEvalID draws (nil records none). An
// unknown alloc is an error wrapping ErrAllocNotFound.
func (s *Server) StopAlloc(id string, newEvalID func() string) (records.Eval, uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.allocs[id]
	if !ok {
		return records.Eval{}, 0, fmt.Errorf("%w: %q", ErrAllocNotFound, id)
	}
	idx := s.bump(a.NodeID)
	if a.DesiredStatus == structs.AllocDesiredStatusRun {
		a = s.edit(a)
		a.DesiredStatus = structs.AllocDesiredStatusStop
		a.AllocModifyIndex, a.ModifyIndex = idx, idx
	}
	var ev records.Eval
	if newEvalID != nil {
		ev = s.recordEval(newEvalID(), a.Job, records.EvalTriggerAllocStop, s.allocRecs[id].Job.JobModifyIndex, idx)
	}
	s.emit(trace.KindJob, a.ID, "stop_alloc", "", map[string]any{"job": a.JobID, "index": idx})
	return ev, idx, nil
}

// GCAlloc garbage-collects alloc id as Nomad's servers do a terminal
// alloc: one no longer desired to run (stop or evict) whose client status
// is terminal leaves its node's alloc list (and bumps the node's index),
// so the node's next Node.GetClientAllocs no longer lists it and its
// client destroys its runner. Its record stays readable (Alloc,
// GetAllocs, History, the job's allocs) for the rest of the run. A
// non-terminal alloc is left alone; an unknown one is an error wrapping
// ErrAllocNotFound.
func (s *Server) GCAlloc(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.allocs[id]
	if !ok {
		return fmt.Errorf("%w: %q", ErrAllocNotFound, id)
	}
	ids := s.byNode[a.NodeID]
	i := slices.Index(ids, id)
	if !a.ServerTerminal() || !a.ClientTerminal() || i < 0 {
		return nil
	}
	s.byNode[a.NodeID] = slices.Delete(slices.Clone(ids), i, i+1)
	idx := s.bump(a.NodeID)
	s.emit(trace.KindJob, a.ID, "gc_alloc", "", map[string]any{"job": a.JobID, "index": idx})
	return nil
}

// JobRecords returns copies of the registered jobs whose ID starts with
// prefix, sorted by ID.
func (s *Server) JobRecords(prefix string) []*records.Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*records.Job
	for id, rec := range s.jobs {
		if strings.HasPrefix(id, prefix) {
			out = append(out, rec.Copy())
		}
	}
	slices.SortFunc(out, func(a, b *records.Job) int { return strings.Compare(a.Job.ID, b.Job.ID) })
	return out
}

// JobRecord returns a copy of a registered job's record, or nil.
func (s *Server) JobRecord(id string) *records.Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.jobs[id].Copy()
}

// JobAllocs returns copies of the job's allocs sorted by ID: with all,
// every alloc with that job ID; without, only those of the registered
// job's current incarnation (a job purged and registered again is a new
// incarnation), or every one when no job of that ID is registered.
func (s *Server) JobAllocs(jobID string, all bool) []*structs.Allocation {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.jobs[jobID]
	var out []*structs.Allocation
	for _, a := range s.jobAllocs(jobID) {
		if all || rec == nil || s.allocRecs[a.ID].Job.CreateIndex == rec.CreateIndex {
			out = append(out, a.Copy())
		}
	}
	return out
}

// AllocRecord returns what the server recorded about an alloc's placement
// (zero for an unknown alloc).
func (s *Server) AllocRecord(id string) records.Alloc {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.allocRecs[id]
}

// EvalRecords returns every evaluation recorded, in creation order: those
// of registrations, deregistrations and alloc stops (RegisterJobEval,
// DeregisterJob, StopAlloc) and those terminal client updates create
// (SYNC-4).
func (s *Server) EvalRecords() []records.Eval {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]records.Eval, len(s.evalRecs))
	for i, e := range s.evalRecs {
		out[i] = *e
	}
	return out
}

// EvalAllocs returns copies of the allocs an evaluation placed or updated
// in place, sorted by ID.
func (s *Server) EvalAllocs(evalID string) []*structs.Allocation {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*structs.Allocation
	if evalID == "" {
		return out
	}
	for id, a := range s.allocs {
		if s.allocRecs[id].EvalID == evalID {
			out = append(out, a.Copy())
		}
	}
	slices.SortFunc(out, func(a, b *structs.Allocation) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// DescribeNode sets a registered node's name, datacenter, pool, class and
// drivers: the non-empty fields of d (ID, Status and the indexes are
// ignored). A node registered without a description has the name
// records.DefaultNodeName(id), datacenter records.DefaultNodeDatacenter
// and pool records.DefaultNodePool.
func (s *Server) DescribeNode(id string, d records.Node) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.nodes[id]
	if !ok {
		return fmt.Errorf(syncpolicy.MsgNodeNotFound, id)
	}
	for _, f := range []struct{ dst, src *string }{
		{&n.desc.Name, &d.Name}, {&n.desc.Datacenter, &d.Datacenter},
		{&n.desc.NodePool, &d.NodePool}, {&n.desc.NodeClass, &d.NodeClass},
	} {
		if *f.src != "" {
			*f.dst = *f.src
		}
	}
	if len(d.Drivers) > 0 {
		n.desc.Drivers = slices.Sorted(slices.Values(d.Drivers))
	}
	return nil
}

// NodeRecords returns the registered nodes, sorted by ID, each with its
// status and the index of the last change to one of its allocs.
func (s *Server) NodeRecords() []records.Node {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]records.Node, 0, len(s.nodes))
	for _, n := range s.nodes {
		out = append(out, n.record())
	}
	slices.SortFunc(out, func(a, b records.Node) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// record is the node's NodeRecord, with the lock held.
func (n *node) record() records.Node {
	r := n.desc
	r.ID, r.Status = n.id, n.status
	r.Drivers = slices.Clone(n.desc.Drivers)
	r.ModifyIndex = max(r.CreateIndex, n.index)
	return r
}

// EvictAlloc sets alloc id's desired status to evict (server-terminal,
// DATA-5), as a preemption or a drain would, and bumps its indexes; an
// alloc no longer desired to run is left alone.
func (s *Server) EvictAlloc(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.allocs[id]
	if !ok {
		return fmt.Errorf("%w: %q", ErrAllocNotFound, id)
	}
	if a.DesiredStatus != structs.AllocDesiredStatusRun {
		return nil
	}
	idx := s.bump(a.NodeID)
	a = s.edit(a)
	a.DesiredStatus = structs.AllocDesiredStatusEvict
	a.AllocModifyIndex, a.ModifyIndex = idx, idx
	s.emit(trace.KindJob, a.ID, "evict_alloc", "", map[string]any{"job": a.JobID, "index": idx})
	return nil
}
