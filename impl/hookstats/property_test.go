package hookstats_test

import (
	"errors"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	metrics "github.com/hashicorp/go-metrics"
	"pgregory.net/rapid"
)

// emission is one hook execution of a property scenario.
type emission struct {
	Handler int // index into the scenario's handlers
	Hook    string
	Failed  bool
	Elapsed time.Duration
}

// handlerSpec is one AR or TR telemetry handler of a scenario.
type handlerSpec struct {
	Kind      hookstats.Kind
	Namespace string
}

func (s handlerSpec) hookType() string {
	if s.Kind == hookstats.AllocHook {
		return hookstats.HookTypePrerun
	}
	return hookstats.HookTypePrestart
}

// expect is the naive oracle: it aggregates emissions the way TELEM-1..4
// describe, one elapsed sample and one outcome counter each.
func expect(base []metrics.Label, specs []handlerSpec, ems []emission) []hookstatstest.Metric {
	agg := map[string]*hookstatstest.Metric{}
	var order []string
	add := func(kind hookstatstest.Kind, name string, ls []metrics.Label, v float64) {
		key := string(kind) + " " + hookstatstest.FlatKey(name, ls)
		m, ok := agg[key]
		if !ok {
			m = &hookstatstest.Metric{Name: name, Labels: ls, Kind: kind, Min: v, Max: v}
			agg[key] = m
			order = append(order, key)
		}
		m.Count++
		m.Sum += v
		m.Min, m.Max = min(m.Min, v), max(m.Max, v)
	}
	for _, e := range ems {
		spec := specs[e.Handler]
		ls := wantLabels(base, spec.Namespace, e.Hook)
		add(hookstatstest.Sample, hookstats.MetricName(spec.Kind, spec.hookType(), "elapsed"), ls,
			float64(hookstats.ElapsedMillis(e.Elapsed)))
		outcome := "success"
		if e.Failed {
			outcome = "failed"
		}
		add(hookstatstest.Counter, hookstats.MetricName(spec.Kind, spec.hookType(), outcome), ls, 1)
	}
	var out []hookstatstest.Metric
	for _, k := range order {
		out = append(out, *agg[k])
	}
	hookstatstest.Sort(out)
	return out
}

// TestPropertyEmissionsMatchOracle: for any sequence of hook executions on
// any alloc and task handlers, with any simulated durations, the sink holds
// exactly what the naive oracle aggregates (TELEM-1..4).
func TestPropertyEmissionsMatchOracle(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		base := hookstats.BaseLabels(
			rapid.SampledFrom([]string{"node-1", "9f1c-22"}).Draw(rt, "nodeID"),
			rapid.SampledFrom([]string{"dc1", "eu west"}).Draw(rt, "datacenter"),
			rapid.SampledFrom([]string{"", "gpu"}).Draw(rt, "nodeClass"),
			"default")
		specs := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) handlerSpec {
			return handlerSpec{
				Kind:      hookstats.Kind(rapid.IntRange(1, 2).Draw(t, "kind")),
				Namespace: rapid.SampledFrom([]string{"default", "prod"}).Draw(t, "namespace"),
			}
		}), 1, 4).Draw(rt, "handlers")
		ems := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) emission {
			return emission{
				Handler: rapid.IntRange(0, len(specs)-1).Draw(t, "handler"),
				Hook:    rapid.SampledFrom([]string{"alloc_dir", "csi_hook", "task_dir", "volumes"}).Draw(t, "hook"),
				Failed:  rapid.Bool().Draw(t, "failed"),
				Elapsed: time.Duration(rapid.Int64Range(0, int64(48*time.Hour)).Draw(t, "elapsed")),
			}
		}), 0, 30).Draw(rt, "emissions")

		sink := hookstatstest.NewSink()
		m, err := hookstats.NewMetrics(sink)
		if err != nil {
			rt.Fatal(err)
		}
		clk := clock.NewMock()
		handlers := make([]hookstats.Handler, len(specs))
		for i, s := range specs {
			handlers[i] = hookstats.New(hookstats.Config{Kind: s.Kind, Metrics: m, Clock: clk, BaseLabels: base, Namespace: s.Namespace})
		}
		for _, e := range ems {
			start := clk.Now()
			clk.Add(e.Elapsed)
			var hookErr error
			if e.Failed {
				hookErr = errors.New("boom")
			}
			handlers[e.Handler].Emit(start, e.Hook, specs[e.Handler].hookType(), hookErr)
		}

		if diff := cmp.Diff(expect(base, specs, ems), hookstatstest.Read(sink)); diff != "" {
			rt.Fatalf("hookstatstest.Read mismatch (-want +got):\n%s", diff)
		}
	})
}
