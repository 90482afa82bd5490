package apiserver

import (
	"slices"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	metrics "github.com/hashicorp/go-metrics"
)

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
