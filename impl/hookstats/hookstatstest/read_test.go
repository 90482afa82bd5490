package hookstatstest_test

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/google/go-cmp/cmp"
	metrics "github.com/hashicorp/go-metrics"
	"github.com/shoenig/test/must"
)

// fakeSource serves hand-built intervals.
type fakeSource []*metrics.IntervalMetrics

func (f fakeSource) Data() []*metrics.IntervalMetrics { return f }

func sampled(name string, ls []metrics.Label, vals ...float64) metrics.SampledValue {
	agg := &metrics.AggregateSample{}
	for _, v := range vals {
		agg.Ingest(v, 1)
	}
	return metrics.SampledValue{Name: name, AggregateSample: agg, Labels: ls}
}

func interval(counters, samples map[string]metrics.SampledValue) *metrics.IntervalMetrics {
	intv := metrics.NewIntervalMetrics(time.Unix(0, 0))
	for k, v := range counters {
		intv.Counters[k] = v
	}
	for k, v := range samples {
		intv.Samples[k] = v
	}
	return intv
}

func ls(kv ...string) []metrics.Label {
	var out []metrics.Label
	for i := 0; i < len(kv); i += 2 {
		out = append(out, metrics.Label{Name: kv[i], Value: kv[i+1]})
	}
	return out
}

// TestReadMergesAndSorts checks merging across intervals (count, sum, min,
// max) and the documented order: Name, then Labels (shorter prefix first),
// then Kind.
func TestReadMergesAndSorts(t *testing.T) {
	a, ab := ls("ns", "a"), ls("ns", "a", "hook", "x")
	src := fakeSource{
		interval(
			map[string]metrics.SampledValue{
				"m.z;ns=a":        sampled("m.z", a, 1),
				"m.a;ns=a;hook=x": sampled("m.a", ab, 1, 1),
			},
			map[string]metrics.SampledValue{
				"m.a;ns=a":   sampled("m.a", a, 5, 2),
				"m.a;ns=a;x": {Name: "m.a"}, // no aggregate: skipped
			}),
		interval(
			map[string]metrics.SampledValue{"m.z;ns=a": sampled("m.z", a, 1)},
			map[string]metrics.SampledValue{
				"m.a;ns=a": sampled("m.a", a, 9),
				"m.a;ns=b": sampled("m.a", ls("ns", "b"), 0.5),
			}),
	}
	want := []hookstatstest.Metric{
		{Name: "m.a", Labels: a, Kind: hookstatstest.Sample, Count: 3, Sum: 16, Min: 2, Max: 9},
		{Name: "m.a", Labels: ab, Kind: hookstatstest.Counter, Count: 2, Sum: 2, Min: 1, Max: 1},
		{Name: "m.a", Labels: ls("ns", "b"), Kind: hookstatstest.Sample, Count: 1, Sum: 0.5, Min: 0.5, Max: 0.5},
		{Name: "m.z", Labels: a, Kind: hookstatstest.Counter, Count: 2, Sum: 2, Min: 1, Max: 1},
	}
	if diff := cmp.Diff(want, hookstatstest.Read(src)); diff != "" {
		t.Fatalf("Read mismatch (-want +got):\n%s", diff)
	}
}

func TestSortKindBreaksTies(t *testing.T) {
	got := []hookstatstest.Metric{
		{Name: "m", Kind: hookstatstest.Sample},
		{Name: "m", Kind: hookstatstest.Counter},
		{Name: "a", Labels: ls("b", "1"), Kind: hookstatstest.Sample},
		{Name: "a", Labels: ls("a", "2"), Kind: hookstatstest.Sample},
		{Name: "a", Labels: ls("a", "1"), Kind: hookstatstest.Sample},
	}
	hookstatstest.Sort(got)
	want := []string{"sample a;a=1", "sample a;a=2", "sample a;b=1", "counter m", "sample m"}
	for i, m := range got {
		must.EqOp(t, want[i], string(m.Kind)+" "+m.Key())
	}
}

// TestReadRealSink checks Read against the real InmemSink: keys flatten
// exactly as the sink does, values are read back, and the result does not
// share label memory with the sink.
func TestReadRealSink(t *testing.T) {
	sink := hookstatstest.NewSink()
	must.Nil(t, hookstatstest.Read(sink))

	labels := ls("datacenter", "eu west", "hook_name", "csi_hook")
	sink.IncrCounterWithLabels([]string{"nomad", "client", "alloc_hook", "prerun", "success"}, 1, labels)
	sink.AddSampleWithLabels([]string{"nomad", "client", "alloc_hook", "prerun", "elapsed"}, 3000, labels)
	sink.AddSampleWithLabels([]string{"nomad", "client", "alloc_hook", "prerun", "elapsed"}, 1.5, labels)

	got := hookstatstest.Read(sink)
	want := []hookstatstest.Metric{
		{Name: "nomad.client.alloc_hook.prerun.elapsed", Labels: labels, Kind: hookstatstest.Sample, Count: 2, Sum: 3001.5, Min: 1.5, Max: 3000},
		{Name: "nomad.client.alloc_hook.prerun.success", Labels: labels, Kind: hookstatstest.Counter, Count: 1, Sum: 1, Min: 1, Max: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Read mismatch (-want +got):\n%s", diff)
	}

	data := sink.Data()
	must.SliceLen(t, 1, data)
	must.MapContainsKey(t, data[0].Samples, got[0].Key())
	must.MapContainsKey(t, data[0].Counters, got[1].Key())
	must.EqOp(t, "nomad.client.alloc_hook.prerun.success;datacenter=eu_west;hook_name=csi_hook", got[1].Key())

	got[0].Labels[0].Value = "mutated"
	must.EqOp(t, "eu west", hookstatstest.Read(sink)[0].Labels[0].Value)
}

func TestMetricString(t *testing.T) {
	m := hookstatstest.Metric{
		Name: "nomad.client.task_hook.prestart.elapsed", Labels: ls("node_id", "n1", "hook_name", "task_dir"),
		Kind: hookstatstest.Sample, Count: 2, Sum: 3000.5, Min: 0.5, Max: 3000,
	}
	must.EqOp(t,
		"sample nomad.client.task_hook.prestart.elapsed;node_id=n1;hook_name=task_dir count=2 sum=3000.5 min=0.5 max=3000",
		m.String())
}

// TestReadDeterministic reads the same content twice, built in different
// emission orders, and expects identical results.
func TestReadDeterministic(t *testing.T) {
	emit := func(order []int) []hookstatstest.Metric {
		sink := hookstatstest.NewSink()
		for _, i := range order {
			sink.IncrCounterWithLabels([]string{"k", string(rune('a' + i))}, 1, ls("n", string(rune('z'-i))))
		}
		return hookstatstest.Read(sink)
	}
	first := emit([]int{0, 1, 2, 3, 4, 5})
	must.SliceLen(t, 6, first)
	if diff := cmp.Diff(first, emit([]int{5, 3, 1, 0, 2, 4})); diff != "" {
		t.Fatalf("Read depends on emission order (-first +second):\n%s", diff)
	}
}
