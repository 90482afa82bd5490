package agent_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/agent"
	metrics "github.com/hashicorp/go-metrics"
	"github.com/shoenig/test/must"
)

// intervals serves hand-built intervals (a MetricsSource).
type intervals []*metrics.IntervalMetrics

func (s intervals) Data() []*metrics.IntervalMetrics { return s }

func hookLabels(hook string) []metrics.Label {
	return []metrics.Label{
		{Name: "node_id", Value: "n1"}, {Name: "datacenter", Value: "dc1"},
		{Name: "node_class", Value: "none"}, {Name: "node_pool", Value: "default"},
		{Name: "namespace", Value: "default"}, {Name: "hook_name", Value: hook},
	}
}

const hookSeries = `{node_id="n1",datacenter="dc1",node_class="none",node_pool="default",namespace="default",hook_name="%s"}`

// TestMetricsPrometheus renders TELEM-1 hook metrics from a real InmemSink,
// exactly and sorted.
func TestMetricsPrometheus(t *testing.T) {
	sink := metrics.NewInmemSink(100*365*24*time.Hour, 200*365*24*time.Hour)
	m, err := metrics.New(&metrics.Config{ServiceName: "nomad", FilterDefault: true}, sink)
	must.NoError(t, err)
	for _, hook := range []string{"csi_hook", "alloc_dir"} {
		m.AddSampleWithLabels([]string{"client", "alloc_hook", "prerun", "elapsed"}, 1500, hookLabels(hook))
		m.IncrCounterWithLabels([]string{"client", "alloc_hook", "prerun", "success"}, 1, hookLabels(hook))
	}
	m.AddSampleWithLabels([]string{"client", "alloc_hook", "prerun", "elapsed"}, 0.5, hookLabels("alloc_dir"))
	m.IncrCounterWithLabels([]string{"client", "alloc_hook", "prerun", "success"}, 1, hookLabels("alloc_dir"))
	m.IncrCounterWithLabels([]string{"client", "task_hook", "prestart", "failed"}, 1, hookLabels("validate"))
	m.SetGaugeWithLabels([]string{"client", "allocs"}, 3, []metrics.Label{{Name: "state", Value: `a "b"\c` + "\n"}})

	r := newRig(t, agent.Config{Metrics: sink})
	got := do(t, r.h, http.MethodGet, "/v1/metrics?format=prometheus", "")
	mustSuccessHeaders(t, got, "1")
	must.EqOp(t, agent.PrometheusContentType, got.Header.Get("Content-Type"))
	s := func(hook string) string { return sprintf(hookSeries, hook) }
	want := "# TYPE nomad_client_alloc_hook_prerun_elapsed summary\n" +
		"nomad_client_alloc_hook_prerun_elapsed_sum" + s("alloc_dir") + " 1500.5\n" +
		"nomad_client_alloc_hook_prerun_elapsed_count" + s("alloc_dir") + " 2\n" +
		"nomad_client_alloc_hook_prerun_elapsed_sum" + s("csi_hook") + " 1500\n" +
		"nomad_client_alloc_hook_prerun_elapsed_count" + s("csi_hook") + " 1\n" +
		"# TYPE nomad_client_alloc_hook_prerun_success counter\n" +
		"nomad_client_alloc_hook_prerun_success" + s("alloc_dir") + " 2\n" +
		"nomad_client_alloc_hook_prerun_success" + s("csi_hook") + " 1\n" +
		"# TYPE nomad_client_allocs gauge\n" +
		`nomad_client_allocs{state="a \"b\"\\c\n"} 3` + "\n" +
		"# TYPE nomad_client_task_hook_prestart_failed counter\n" +
		"nomad_client_task_hook_prestart_failed" + s("validate") + " 1\n"
	must.EqOp(t, want, got.Body)
	must.EqOp(t, want, agent.RenderPrometheus(sink)) // byte-stable
}

// TestMetricsMergeIntervals: counters and samples add up over intervals,
// gauges keep the newest; odd names are sanitized.
func TestMetricsMergeIntervals(t *testing.T) {
	mk := func(counter, gauge float64) *metrics.IntervalMetrics {
		intv := metrics.NewIntervalMetrics(time.Unix(0, 0))
		agg := &metrics.AggregateSample{}
		agg.Ingest(counter, 1)
		intv.Counters["c"] = metrics.SampledValue{Name: "9lives.a-b", AggregateSample: agg,
			Labels: []metrics.Label{{Name: "x.y", Value: "1"}}}
		intv.Counters["nil"] = metrics.SampledValue{Name: "skipped"}
		intv.Gauges["empty"] = metrics.GaugeValue{Name: "", Value: 1}
		intv.Samples["nil"] = metrics.SampledValue{Name: "skipped"}
		intv.Gauges["g"] = metrics.GaugeValue{Name: "g", Value: float32(gauge)}
		intv.PrecisionGauges["p"] = metrics.PrecisionGaugeValue{Name: "p:q", Value: gauge * 10}
		return intv
	}
	src := intervals{mk(2, 1), nil, mk(3, 7)}
	want := "# TYPE _ gauge\n_ 1\n" +
		"# TYPE _9lives_a_b counter\n_9lives_a_b{x_y=\"1\"} 5\n" +
		"# TYPE g gauge\ng 7\n" +
		"# TYPE p:q gauge\np:q 70\n"
	must.EqOp(t, want, agent.RenderPrometheus(src))
	must.EqOp(t, "", agent.RenderPrometheus(nil))
	must.EqOp(t, "", agent.RenderPrometheus(intervals{}))
}

func TestMetricsErrors(t *testing.T) {
	r := newRig(t, agent.Config{})
	got := do(t, r.h, http.MethodGet, "/v1/metrics?format=prometheus", "")
	mustSuccessHeaders(t, got, "1")
	must.EqOp(t, "", got.Body) // no source, no metrics

	got = do(t, r.h, http.MethodGet, "/v1/metrics", "")
	must.EqOp(t, http.StatusBadRequest, got.Status)
	must.EqOp(t, `Unsupported metrics format "": only "prometheus" is served`, got.Body)

	got = do(t, r.h, http.MethodPut, "/v1/metrics?format=prometheus", "")
	must.EqOp(t, http.StatusMethodNotAllowed, got.Status)
}
