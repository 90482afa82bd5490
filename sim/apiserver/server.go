package apiserver

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/server"
	metrics "github.com/hashicorp/go-metrics"
)

// EvalStream is the name of the seeds stream a World's adapter draws its
// evaluation IDs from: seeds.Stream(seed, EvalStream).
const EvalStream = "evals"

// Simulated is what the adapter needs from the simulated server;
// *server.Server implements it.
type Simulated interface {
	// RegisterJobEval admits and places a job, recording its evaluation
	// with the ID newEvalID draws (once, on success).
	RegisterJobEval(job *structs.Job, newEvalID func() string) (server.Registration, error)
	// JobAllocs returns the job's allocs sorted by ID (all: those of
	// earlier incarnations of the job ID too).
	JobAllocs(jobID string, all bool) []*structs.Allocation
	// Alloc returns a copy of one alloc (with its Job), or nil.
	Alloc(id string) *structs.Allocation
	// Allocs returns copies of every alloc, sorted by ID.
	Allocs() []*structs.Allocation
	// Index is the server's latest log index.
	Index() uint64
	// Call is the server's RPC entry point.
	Call(ctx context.Context, method string, args, reply any) error

	// The records of Nomad's API (issue 14; sim/server records.go).
	JobRecords(prefix string) []*records.Job
	JobRecord(id string) *records.Job
	DeregisterJob(id string, purge bool, newEvalID func() string) (server.Deregistration, error)
	StopAlloc(id string, newEvalID func() string) (records.Eval, uint64, error)
	EvalRecords() []records.Eval
	EvalAllocs(evalID string) []*structs.Allocation
	AllocRecord(id string) records.Alloc
	NodeRecords() []records.Node
}

var _ Simulated = (*server.Server)(nil)

// Server is the simulated server as the agent's agent.Server. Build it
// with New; it is safe for concurrent use.
type Server struct {
	srv Simulated

	mu    sync.Mutex
	evals *rand.Rand // draws evaluation IDs; guarded by mu
}

var (
	_ agent.Server  = (*Server)(nil)
	_ agent.Cluster = (*Server)(nil)
)

// New adapts srv. evals draws the evaluation IDs; nil means
// seeds.Stream(0, EvalStream), so the IDs are still deterministic.
func New(srv Simulated, evals *rand.Rand) *Server {
	if evals == nil {
		evals = seeds.Stream(0, EvalStream)
	}
	return &Server{srv: srv, evals: evals}
}

// RegisterJob registers and places the job (API-4). The eval ID is drawn
// here, once the server has admitted the job, and the server records the
// evaluation under it; both indexes are the log index of the
// registration: the highest AllocModifyIndex of the allocs it placed or
// updated in place, or the server's index when it touched none (a group
// count of 0). The server's error, already wrapping its joined validation
// failures, is returned as is (the agent serves each joined failure as
// one multierror item).
func (s *Server) RegisterJob(job *structs.Job) (evalID string, evalIndex, jobModifyIndex uint64, err error) {
	reg, err := s.srv.RegisterJobEval(job, s.drawEvalID)
	if err != nil {
		return "", 0, 0, err
	}
	index := s.placementIndex(reg.Allocs)
	return reg.Eval.ID, index, index, nil
}

// drawEvalID draws the next evaluation ID.
func (s *Server) drawEvalID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return seeds.ID(s.evals)
}

// placementIndex is a registration's log index: the highest
// AllocModifyIndex of allocs, or the server's index when there are none.
func (s *Server) placementIndex(allocs []*structs.Allocation) uint64 {
	var index uint64
	for _, a := range allocs {
		if a != nil {
			index = max(index, a.AllocModifyIndex)
		}
	}
	if index == 0 {
		index = s.srv.Index()
	}
	return index
}

// JobAllocations returns the job's allocs, sorted by ID (API-5): those
// of the registered job's current incarnation, or with all those of
// earlier ones too (a job purged and registered again); allocs the job's
// destructive updates or stops stopped are listed either way, as Nomad
// lists them.
func (s *Server) JobAllocations(jobID string, all bool) []*structs.Allocation {
	return sortedByID(s.srv.JobAllocs(jobID, all))
}

// Alloc returns one alloc, full (with its Job).
func (s *Server) Alloc(id string) (*structs.Allocation, bool) {
	a := s.srv.Alloc(id)
	return a, a != nil
}

// AllocsByPrefix returns the allocs whose ID starts with prefix, sorted
// by ID (API-5); the empty prefix lists every alloc.
func (s *Server) AllocsByPrefix(prefix string) []*structs.Allocation {
	return s.filter(func(a *structs.Allocation) bool { return strings.HasPrefix(a.ID, prefix) })
}

// RPC calls a server RPC (API-7: ClientAllocations.*), with no deadline:
// the simulated server answers forwarded calls without waiting on the
// clock.
func (s *Server) RPC(method string, args, reply any) error {
	return s.srv.Call(context.Background(), method, args, reply)
}

// filter returns the server's allocs that keep holds, sorted by ID.
func (s *Server) filter(keep func(*structs.Allocation) bool) []*structs.Allocation {
	all := s.srv.Allocs() // copies
	return sortedByID(slices.DeleteFunc(all, func(a *structs.Allocation) bool { return a == nil || !keep(a) }))
}

// sortedByID drops nil allocs and sorts the rest by ID (DET-2), never
// returning nil.
func sortedByID(allocs []*structs.Allocation) []*structs.Allocation {
	out := slices.DeleteFunc(slices.Clone(allocs), func(a *structs.Allocation) bool { return a == nil })
	if out == nil {
		out = []*structs.Allocation{}
	}
	slices.SortFunc(out, func(a, b *structs.Allocation) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Dispatcher is the part of the simulated server that dispatches
// parameterized jobs; *server.Server implements it.
type Dispatcher interface {
	DispatchJobEval(parentID string, meta map[string]string, payload []byte, newEvalID func() string) (*structs.Job, server.Registration, error)
}

var (
	_ Dispatcher       = (*server.Server)(nil)
	_ agent.Dispatcher = (*Server)(nil)
)

// DispatchJob dispatches a parameterized job (agent.Dispatcher): the
// simulated server validates the dispatch and registers the child; the
// eval ID is drawn here and the indexes are those of the child's
// registration (RegisterJob). An unknown job is agent.ErrJobNotFound; a
// server without dispatch says so.
func (s *Server) DispatchJob(parentID string, meta map[string]string, payload []byte) (agent.DispatchResult, error) {
	d, ok := s.srv.(Dispatcher)
	if !ok {
		return agent.DispatchResult{}, errors.New("dispatch: this server does not dispatch parameterized jobs")
	}
	child, reg, err := d.DispatchJobEval(parentID, meta, payload, s.drawEvalID)
	if errors.Is(err, server.ErrJobNotFound) {
		return agent.DispatchResult{}, fmt.Errorf("%w: %q", agent.ErrJobNotFound, parentID)
	}
	if err != nil {
		return agent.DispatchResult{}, err
	}
	index := s.placementIndex(reg.Allocs)
	return agent.DispatchResult{DispatchedJobID: child.ID, EvalID: reg.Eval.ID,
		EvalCreateIndex: index, JobCreateIndex: index, Index: index}, nil
}

// The agent.Cluster part (issue 14): the simulated server's records,
// passed through, with the evaluation IDs of deregistrations and alloc
// stops drawn from the adapter's source like those of registrations.

// JobRecords returns the registered jobs whose ID starts with prefix,
// sorted by ID.
func (s *Server) JobRecords(prefix string) []*records.Job { return s.srv.JobRecords(prefix) }

// JobRecord returns one registered job, or nil.
func (s *Server) JobRecord(id string) *records.Job { return s.srv.JobRecord(id) }

// DeregisterJob stops (with purge: removes) a job; an unknown one is
// agent.ErrJobNotFound.
func (s *Server) DeregisterJob(id string, purge bool) (records.Eval, uint64, error) {
	d, err := s.srv.DeregisterJob(id, purge, s.drawEvalID)
	if errors.Is(err, server.ErrJobNotFound) {
		return records.Eval{}, 0, fmt.Errorf("%w: %q", agent.ErrJobNotFound, id)
	}
	if err != nil {
		return records.Eval{}, 0, err
	}
	return d.Eval, d.JobModifyIndex, nil
}

// StopAlloc sets one alloc to desired stop; an unknown one is
// agent.ErrAllocNotFound.
func (s *Server) StopAlloc(id string) (records.Eval, uint64, error) {
	ev, index, err := s.srv.StopAlloc(id, s.drawEvalID)
	if errors.Is(err, server.ErrAllocNotFound) {
		return records.Eval{}, 0, fmt.Errorf("%w: %q", agent.ErrAllocNotFound, id)
	}
	return ev, index, err
}

// Evaluations returns every evaluation, in creation order.
func (s *Server) Evaluations() []records.Eval { return s.srv.EvalRecords() }

// EvalAllocations returns the allocs an evaluation placed or updated.
func (s *Server) EvalAllocations(evalID string) []*structs.Allocation {
	return s.srv.EvalAllocs(evalID)
}

// AllocRecord returns what the server recorded about an alloc's placement.
func (s *Server) AllocRecord(id string) records.Alloc { return s.srv.AllocRecord(id) }

// Nodes returns the registered nodes, sorted by ID.
func (s *Server) Nodes() []records.Node { return s.srv.NodeRecords() }

// MetricsReader reads a run's aggregated hook telemetry; a World's
// Metrics method is one.
type MetricsReader func() []hookstatstest.Metric

// Data rebuilds, at each call, one go-metrics interval holding every
// counter and sample read gives (TELEM-1), keyed as InmemSink keys them,
// so agent.RenderPrometheus serves them as the sink itself would be
// served: counters with their sum, samples with their sum and count. A
// nil reader gives one empty interval.
func (read MetricsReader) Data() []*metrics.IntervalMetrics {
	intv := &metrics.IntervalMetrics{
		Gauges:          map[string]metrics.GaugeValue{},
		PrecisionGauges: map[string]metrics.PrecisionGaugeValue{},
		Points:          map[string][]float32{},
		Counters:        map[string]metrics.SampledValue{},
		Samples:         map[string]metrics.SampledValue{},
	}
	if read == nil {
		return []*metrics.IntervalMetrics{intv}
	}
	for _, m := range read() {
		v := metrics.SampledValue{
			Name:   m.Name,
			Labels: slices.Clone(m.Labels),
			AggregateSample: &metrics.AggregateSample{
				Count: m.Count, Sum: m.Sum, Min: m.Min, Max: m.Max,
			},
		}
		switch m.Kind {
		case hookstatstest.Counter:
			intv.Counters[m.Key()] = v
		case hookstatstest.Sample:
			intv.Samples[m.Key()] = v
		}
	}
	return []*metrics.IntervalMetrics{intv}
}

var _ agent.MetricsSource = MetricsReader(nil)
