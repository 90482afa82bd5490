package apiserver_test

import (
	"fmt"
	"testing"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/allocsim/allocsim/sim/apiserver"
	metrics "github.com/hashicorp/go-metrics"
	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

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
