package apiserver_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/apiserver"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/server"
	metrics "github.com/hashicorp/go-metrics"
	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

// fakeSim is a scripted apiserver.Simulated; the records of issue 14 it
// does not script panic (nil embedded interface).
type fakeSim struct {
	apiserver.Simulated
	allocs   []*structs.Allocation
	placed   []*structs.Allocation
	err      error
	index    uint64
	lastCall string
	lastCtx  context.Context
}

var _ apiserver.Simulated = (*fakeSim)(nil)

func (f *fakeSim) RegisterJobEval(_ *structs.Job, newEvalID func() string) (server.Registration, error) {
	if f.err != nil {
		return server.Registration{}, f.err
	}
	return server.Registration{Allocs: f.placed, Eval: records.Eval{ID: newEvalID()}}, nil
}

func (f *fakeSim) Index() uint64 { return f.index }

// JobAllocs returns the job's allocs in the order given (the adapter
// sorts).
func (f *fakeSim) JobAllocs(jobID string, _ bool) []*structs.Allocation {
	var out []*structs.Allocation
	for _, a := range f.allocs {
		if a != nil && a.JobID == jobID {
			out = append(out, a.Copy())
		}
	}
	return out
}

// Allocs returns copies in the order given (not necessarily sorted: the
// adapter sorts).
func (f *fakeSim) Allocs() []*structs.Allocation {
	out := make([]*structs.Allocation, len(f.allocs))
	for i, a := range f.allocs {
		out[i] = a.Copy()
	}
	return out
}

func (f *fakeSim) Alloc(id string) *structs.Allocation {
	for _, a := range f.allocs {
		if a != nil && a.ID == id {
			return a.Copy()
		}
	}
	return nil
}

func (f *fakeSim) Call(ctx context.Context, method string, _, _ any) error {
	f.lastCall, f.lastCtx = method, ctx
	return f.err
}

func ids(as []*structs.Allocation) []string {
	out := []string{}
	for _, a := range as {
		out = append(out, a.ID)
	}
	return out
}

// TestRegisterJobIndexes: both register indexes are the registration's
// log index (API-4): its allocs' highest AllocModifyIndex, else the
// server's index; every registration draws a fresh eval ID.
func TestRegisterJobIndexes(t *testing.T) {
	cases := []struct {
		name   string
		placed []*structs.Allocation
		index  uint64
		want   uint64
	}{
		{"highest of the allocs", []*structs.Allocation{{ID: "a", AllocModifyIndex: 7}, {ID: "b", AllocModifyIndex: 9}}, 12, 9},
		{"nil allocs skipped", []*structs.Allocation{nil, {ID: "a", AllocModifyIndex: 4}}, 12, 4},
		{"count 0: the server's index", nil, 12, 12},
	}
	s := apiserver.New(&fakeSim{}, rand.New(rand.NewPCG(1, 2)))
	seen := map[string]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := apiserver.New(&fakeSim{placed: c.placed, index: c.index}, rand.New(rand.NewPCG(1, 2)))
			evalID, evalIdx, jobIdx, err := s.RegisterJob(&structs.Job{ID: "j"})
			must.NoError(t, err)
			must.EqOp(t, c.want, evalIdx)
			must.EqOp(t, c.want, jobIdx)
			must.UUIDv4(t, evalID)
		})
		evalID, _, _, err := s.RegisterJob(&structs.Job{ID: "j"})
		must.NoError(t, err)
		must.False(t, seen[evalID], must.Sprintf("eval ID %s drawn twice", evalID))
		seen[evalID] = true
	}
}

// TestRegisterJobError: the server's error comes back as is, wrapped
// joined failures included, and no eval ID is drawn for it.
func TestRegisterJobError(t *testing.T) {
	joined := errors.Join(errors.New("a"), errors.New("b"))
	f := &fakeSim{err: joined}
	s := apiserver.New(f, rand.New(rand.NewPCG(1, 2)))
	evalID, evalIdx, jobIdx, err := s.RegisterJob(&structs.Job{ID: "j"})
	must.ErrorIs(t, err, joined)
	must.EqOp(t, "", evalID)
	must.EqOp(t, uint64(0), evalIdx+jobIdx)

	f.err = nil
	first, _, _, err := s.RegisterJob(&structs.Job{ID: "j"})
	must.NoError(t, err)
	must.EqOp(t, seeds.ID(rand.New(rand.NewPCG(1, 2))), first, must.Sprint("the failed registration drew nothing"))
}

// TestDefaultEvalSource: a nil source is the seed-0 eval stream, so IDs
// stay deterministic.
func TestDefaultEvalSource(t *testing.T) {
	evalID, _, _, err := apiserver.New(&fakeSim{}, nil).RegisterJob(&structs.Job{ID: "j"})
	must.NoError(t, err)
	must.EqOp(t, seeds.ID(seeds.Stream(0, apiserver.EvalStream)), evalID)
}

// TestReads: listings by job and by prefix are sorted by ID whatever
// order the server gives (API-5, DET-2); Alloc finds one or reports
// false.
func TestReads(t *testing.T) {
	f := &fakeSim{allocs: []*structs.Allocation{
		{ID: "bb33", JobID: "web"}, nil, {ID: "aa22", JobID: "db"}, {ID: "aa11", JobID: "web"},
	}}
	s := apiserver.New(f, nil)
	cases := []struct {
		name string
		got  []*structs.Allocation
		want []string
	}{
		{"job web", s.JobAllocations("web", false), []string{"aa11", "bb33"}},
		{"job web, all", s.JobAllocations("web", true), []string{"aa11", "bb33"}},
		{"unknown job", s.JobAllocations("nope", true), []string{}},
		{"prefix aa", s.AllocsByPrefix("aa"), []string{"aa11", "aa22"}},
		{"prefix aa1", s.AllocsByPrefix("aa1"), []string{"aa11"}},
		{"empty prefix", s.AllocsByPrefix(""), []string{"aa11", "aa22", "bb33"}},
		{"no match", s.AllocsByPrefix("cc"), []string{}},
	}
	for _, c := range cases {
		must.Eq(t, c.want, ids(c.got), must.Sprint(c.name))
	}
	a, ok := s.Alloc("aa22")
	must.True(t, ok)
	must.EqOp(t, "db", a.JobID)
	a.JobID = "mutated"
	again, _ := s.Alloc("aa22")
	must.EqOp(t, "db", again.JobID, must.Sprint("Alloc returns the server's copy"))
	_, ok = s.Alloc("zz")
	must.False(t, ok)
}

// TestRPCVerbatim: a server RPC reaches Call with the method unchanged and
// its error comes back verbatim (API-7).
func TestRPCVerbatim(t *testing.T) {
	f := &fakeSim{err: errors.New("No path to node")}
	s := apiserver.New(f, nil)
	err := s.RPC(structs.RPCServerGetPauseState, &structs.AllocGetPauseStateRequest{}, &structs.AllocGetPauseStateResponse{})
	must.EqError(t, err, "No path to node")
	must.EqOp(t, structs.RPCServerGetPauseState, f.lastCall)
	must.NoError(t, f.lastCtx.Err(), must.Sprint("no deadline, never cancelled"))
}

// TestMetricsRenderLikeTheSink: for any emissions, /v1/metrics renders the
// rebuilt interval exactly as it renders the sink itself (TELEM-1), so a
// World's aggregated read serves what a real agent's sink would.
func TestMetricsRenderLikeTheSink(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sink := hookstatstest.NewSink()
		names := []string{"nomad.client.alloc_hook.prerun.success", "nomad.client.task_hook.prestart.elapsed", "x y.z"}
		n := rapid.IntRange(0, 30).Draw(t, "emissions")
		for i := range n {
			name := []string{rapid.SampledFrom(names).Draw(t, fmt.Sprintf("name%d", i))}
			labels := []metrics.Label{{Name: "hook_name", Value: rapid.SampledFrom([]string{"alloc_dir", "task dir"}).Draw(t, fmt.Sprintf("hook%d", i))}}
			v := float32(rapid.IntRange(0, 5000).Draw(t, fmt.Sprintf("v%d", i))) / 4
			if rapid.Bool().Draw(t, fmt.Sprintf("counter%d", i)) {
				sink.IncrCounterWithLabels(name, v, labels)
			} else {
				sink.AddSampleWithLabels(name, v, labels)
			}
		}
		want := agent.RenderPrometheus(sink)
		got := agent.RenderPrometheus(apiserver.MetricsReader(func() []hookstatstest.Metric { return hookstatstest.Read(sink) }))
		if got != want {
			t.Fatalf("RenderPrometheus(MetricsReader) =\n%s\nwant (the sink's)\n%s", got, want)
		}
	})
}

// TestMetricsExact: one counter and one sample render with their exact
// sums and count (the expectations a scenario test relies on).
func TestMetricsExact(t *testing.T) {
	labels := []metrics.Label{{Name: "node_id", Value: "n1"}, {Name: "hook_name", Value: "alloc_dir"}}
	read := apiserver.MetricsReader(func() []hookstatstest.Metric {
		return []hookstatstest.Metric{
			{Name: "nomad.client.alloc_hook.prerun.success", Labels: labels, Kind: hookstatstest.Counter, Count: 2, Sum: 2, Min: 1, Max: 1},
			{Name: "nomad.client.alloc_hook.prerun.elapsed", Labels: labels, Kind: hookstatstest.Sample, Count: 2, Sum: 3000.5, Min: 0.5, Max: 3000},
			{Name: "ignored.kind", Kind: "gauge", Count: 1, Sum: 1},
		}
	})
	must.EqOp(t, `# TYPE nomad_client_alloc_hook_prerun_elapsed summary
nomad_client_alloc_hook_prerun_elapsed_sum{node_id="n1",hook_name="alloc_dir"} 3000.5
nomad_client_alloc_hook_prerun_elapsed_count{node_id="n1",hook_name="alloc_dir"} 2
# TYPE nomad_client_alloc_hook_prerun_success counter
nomad_client_alloc_hook_prerun_success{node_id="n1",hook_name="alloc_dir"} 2
`, agent.RenderPrometheus(read))
}

// TestMetricsNilReader: a nil reader is an empty source.
func TestMetricsNilReader(t *testing.T) {
	var read apiserver.MetricsReader
	data := read.Data()
	must.SliceLen(t, 1, data)
	must.MapEmpty(t, data[0].Counters)
	must.EqOp(t, "", agent.RenderPrometheus(read))
}
