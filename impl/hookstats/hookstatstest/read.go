package hookstatstest

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	metrics "github.com/hashicorp/go-metrics"
)

// Kind is the kind of an aggregated metric.
type Kind string

const (
	// Counter is an IncrCounter aggregate.
	Counter Kind = "counter"
	// Sample is an AddSample aggregate.
	Sample Kind = "sample"
)

// Metric is one aggregated metric: every emission with the same kind, name
// and labels.
type Metric struct {
	// Name is the dotted key including the service name, e.g.
	// `nomad.client.alloc_hook.prerun.success`.
	Name string
	// Labels are the labels in emission order (TELEM-2).
	Labels []metrics.Label
	Kind   Kind
	// Count is the number of emissions; Sum their total (for a counter
	// incremented by 1 each time, Sum == Count). Min and Max are the
	// extreme emitted values. Values went through float32 (go-metrics).
	Count    int
	Sum      float64
	Min, Max float64
}

// Key is the flattened key InmemSink uses for m:
// `<name>;<label>=<value>;...`, spaces replaced by `_`.
func (m Metric) Key() string {
	return FlatKey(m.Name, m.Labels)
}

// String renders m on one line, deterministically, e.g.
// `counter nomad.client.alloc_hook.prerun.success;node_id=n1;... count=1 sum=1 min=1 max=1`.
func (m Metric) String() string {
	return fmt.Sprintf("%s %s count=%d sum=%s min=%s max=%s",
		m.Kind, m.Key(), m.Count, formatFloat(m.Sum), formatFloat(m.Min), formatFloat(m.Max))
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// FlatKey flattens a dotted name and labels the way InmemSink does.
func FlatKey(name string, labels []metrics.Label) string {
	var b strings.Builder
	b.WriteString(name)
	for _, l := range labels {
		b.WriteString(";")
		b.WriteString(l.Name)
		b.WriteString("=")
		b.WriteString(l.Value)
	}
	return strings.ReplaceAll(b.String(), " ", "_")
}

// Source is what Read needs; *metrics.InmemSink implements it.
type Source interface {
	Data() []*metrics.IntervalMetrics
}

var _ Source = (*metrics.InmemSink)(nil)

// NewSink returns an InmemSink whose single interval spans a century and
// whose retention spans two, so no emission of a run is ever pruned.
func NewSink() *metrics.InmemSink {
	const interval = 100 * 365 * 24 * time.Hour
	return metrics.NewInmemSink(interval, 2*interval)
}

// Read returns every counter and sample src holds, merged across its
// intervals and sorted by Name, then Labels (pairwise by name, then value;
// a shorter prefix first), then Kind. Gauges and key-value points are not
// read: hook telemetry emits none. The result is nil when src is empty
// and never shares memory with src.
func Read(src Source) []Metric {
	byKey := map[Kind]map[string]*Metric{Counter: {}, Sample: {}}
	for _, intv := range src.Data() {
		intv.RLock()
		merge(byKey[Counter], Counter, intv.Counters)
		merge(byKey[Sample], Sample, intv.Samples)
		intv.RUnlock()
	}
	var out []Metric
	for _, kind := range []Kind{Counter, Sample} {
		for _, m := range byKey[kind] {
			out = append(out, *m)
		}
	}
	Sort(out)
	return out
}

// Sort sorts ms in Read's order: by Name, then Labels (pairwise by name,
// then value; a shorter prefix first), then Kind. Use it on expectations
// before comparing them with Read's result.
func Sort(ms []Metric) {
	slices.SortFunc(ms, compare)
}

func merge(into map[string]*Metric, kind Kind, from map[string]metrics.SampledValue) {
	for key, v := range from {
		if v.AggregateSample == nil || v.Count == 0 {
			continue
		}
		m, ok := into[key]
		if !ok {
			into[key] = &Metric{
				Name:   v.Name,
				Labels: slices.Clone(v.Labels),
				Kind:   kind,
				Count:  v.Count,
				Sum:    v.Sum,
				Min:    v.Min,
				Max:    v.Max,
			}
			continue
		}
		m.Count += v.Count
		m.Sum += v.Sum
		m.Min = min(m.Min, v.Min)
		m.Max = max(m.Max, v.Max)
	}
}

func compare(a, b Metric) int {
	if c := cmp.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	if c := slices.CompareFunc(a.Labels, b.Labels, compareLabel); c != 0 {
		return c
	}
	return cmp.Compare(a.Kind, b.Kind)
}

func compareLabel(a, b metrics.Label) int {
	if c := cmp.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return cmp.Compare(a.Value, b.Value)
}
