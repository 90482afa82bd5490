package telemetry_test

import (
	"errors"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/telemetry"
	metrics "github.com/hashicorp/go-metrics"
	"github.com/shoenig/test/must"
)

// TestTELEM_EmissionsThroughGoMetrics replays expected emissions through a
// real go-metrics instance configured as TELEM-1 says (service name nomad,
// no host name, no type prefix) into an in-memory sink, and checks the sink
// files them under Emission.SinkKey with Emission.Name and the same labels.
// This pins the pure values to the library the runners use; model code
// itself does not import go-metrics.
func TestTELEM_EmissionsThroughGoMetrics(t *testing.T) {
	sink := metrics.NewInmemSink(time.Hour, time.Hour)
	cfg := metrics.DefaultConfig(telemetry.ServiceName)
	cfg.EnableHostname = false
	cfg.EnableHostnameLabel = false
	cfg.EnableRuntimeMetrics = false
	cfg.EnableTypePrefix = false
	m, err := metrics.New(cfg, sink)
	must.NoError(t, err)

	base := telemetry.BaseLabels{NodeID: "node 1", Datacenter: "dc1", NodePool: "default"}
	var want []telemetry.Emission
	want = append(want, telemetry.ExpectedForHook(telemetry.AllocHook, telemetry.HookTypePrerun, "alloc_dir",
		base, "web", 3*time.Second, nil)...)
	want = append(want, telemetry.ExpectedForHook(telemetry.TaskHook, telemetry.HookTypePrestart, "volumes",
		base, "web", 1500*time.Microsecond, errors.New("no mount"))...)
	for _, e := range want {
		labels := make([]metrics.Label, len(e.Labels))
		for i, l := range e.Labels {
			labels[i] = metrics.Label{Name: l.Name, Value: l.Value}
		}
		switch e.Kind {
		case telemetry.Counter:
			m.IncrCounterWithLabels(e.Key, float32(e.Value), labels)
		case telemetry.Sample:
			m.AddSampleWithLabels(e.Key, float32(e.Value), labels)
		}
	}

	data := sink.Data()
	must.Len(t, 1, data)
	iv := data[0]
	must.MapLen(t, 2, iv.Samples)
	must.MapLen(t, 2, iv.Counters)
	for _, e := range want {
		table := iv.Counters
		if e.Kind == telemetry.Sample {
			table = iv.Samples
		}
		got, ok := table[e.SinkKey()]
		must.True(t, ok, must.Sprintf("sink has no %s %q; has %v", e.Kind, e.SinkKey(), keys(table)))
		must.Eq(t, e.Name(), got.Name)
		must.Eq(t, 1, got.Count)
		must.Eq(t, float64(float32(e.Value)), got.Sum)
		must.Len(t, len(e.Labels), got.Labels)
		for i, l := range got.Labels {
			must.Eq(t, e.Labels[i].Name, l.Name)
			must.Eq(t, e.Labels[i].Value, l.Value)
		}
	}
}

func keys(m map[string]metrics.SampledValue) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
