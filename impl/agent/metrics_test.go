package agent_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/agent"
	metrics "github.com/hashicorp/go-metrics"
	"github.com/hashicorp/nomad/api"
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

// hookSink is a real InmemSink holding TELEM-1 hook metrics and a gauge.
func hookSink(t *testing.T) *metrics.InmemSink {
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
	return sink
}

// TestMetricsPrometheus renders TELEM-1 hook metrics from a real InmemSink,
// exactly and sorted.
func TestMetricsPrometheus(t *testing.T) {
	sink := hookSink(t)
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

// TestMetricsJSON: without format=prometheus, /v1/metrics is go-metrics'
// own JSON summary (byte for byte what the sink's DisplayMetrics gives),
// which the official client decodes (`nomad operator metrics`); without
// a source every list is empty. Only GET is served.
func TestMetricsJSON(t *testing.T) {
	sink := hookSink(t)
	r := newRig(t, agent.Config{Metrics: sink})
	got := do(t, r.h, http.MethodGet, "/v1/metrics", "")
	mustSuccessHeaders(t, got, "1")
	must.EqOp(t, "application/json", got.Header.Get("Content-Type"))
	want, err := sink.DisplayMetrics(nil, nil)
	must.NoError(t, err)
	wantJSON, err := json.Marshal(want)
	must.NoError(t, err)
	must.EqOp(t, string(wantJSON), got.Body)
	must.EqOp(t, got.Body, do(t, r.h, http.MethodGet, "/v1/metrics?format=json", "").Body)

	summary, _, err := r.api.Operator().MetricsSummary(nil)
	must.NoError(t, err)
	must.SliceLen(t, 3, summary.Counters)
	c := summary.Counters[0]
	must.EqOp(t, "nomad.client.alloc_hook.prerun.success", c.Name)
	must.EqOp(t, "alloc_dir", c.DisplayLabels["hook_name"])
	must.EqOp(t, 2, c.Count)
	must.EqOp(t, 2.0, c.Sum)
	must.SliceLen(t, 2, summary.Samples)
	must.EqOp(t, 750.25, summary.Samples[0].Mean)
	must.Eq(t, []api.GaugeValue{{Name: "nomad.client.allocs", Value: 3, DisplayLabels: map[string]string{"state": `a "b"\c` + "\n"}}}, summary.Gauges)

	empty := newRig(t, agent.Config{})
	got = do(t, empty.h, http.MethodGet, "/v1/metrics", "")
	mustSuccessHeaders(t, got, "1")
	must.EqOp(t, `{"Timestamp":"","Gauges":[],"PrecisionGauges":[],"Points":[],"Counters":[],"Samples":[]}`, got.Body)
	got = do(t, empty.h, http.MethodGet, "/v1/metrics?format=prometheus", "")
	mustSuccessHeaders(t, got, "1")
	must.EqOp(t, "", got.Body) // no source, no metrics
	got = do(t, empty.h, http.MethodPut, "/v1/metrics", "")
	must.EqOp(t, http.StatusMethodNotAllowed, got.Status)
	must.EqOp(t, agent.MsgInvalidMethod, got.Body)
}
