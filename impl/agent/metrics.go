package agent

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	metrics "github.com/hashicorp/go-metrics"
)

// PrometheusContentType is the content type of /v1/metrics?format=prometheus.
const PrometheusContentType = "text/plain; version=0.0.4; charset=utf-8"

// serveMetrics is GET /v1/metrics: as Nomad serves it, the JSON summary
// of summarize (`nomad operator metrics`), or with format=prometheus the
// text of RenderPrometheus.
func (h *Handler) serveMetrics(r *http.Request) (any, uint64, error) {
	if r.URL.Query().Get("format") == "prometheus" {
		return textReply{contentType: PrometheusContentType, body: RenderPrometheus(h.metrics)}, 0, nil
	}
	return summarize(h.metrics), 0, nil
}

// summarize is what go-metrics' InmemSink.DisplayMetrics serves, for any
// source: the most recent finished interval of src (the current one if it
// is the only one), each list sorted by key, labels as a map, samples
// with their mean and standard deviation. Without a source or an
// interval, every list is empty.
func summarize(src MetricsSource) metrics.MetricsSummary {
	out := metrics.MetricsSummary{Gauges: []metrics.GaugeValue{}, PrecisionGauges: []metrics.PrecisionGaugeValue{},
		Points: []metrics.PointValue{}, Counters: []metrics.SampledValue{}, Samples: []metrics.SampledValue{}}
	var data []*metrics.IntervalMetrics
	if src != nil {
		data = src.Data()
	}
	if len(data) == 0 || data[max(len(data)-2, 0)] == nil {
		return out
	}
	intv := data[max(len(data)-2, 0)]
	intv.RLock()
	defer intv.RUnlock()
	out.Timestamp = intv.Interval.Round(time.Second).UTC().String()
	for _, k := range sortedKeys(intv.Points) {
		out.Points = append(out.Points, metrics.PointValue{Name: k, Points: slices.Clone(intv.Points[k])})
	}
	for _, k := range sortedKeys(intv.Gauges) {
		v := intv.Gauges[k]
		out.Gauges = append(out.Gauges, metrics.GaugeValue{Name: v.Name, Hash: k, Value: v.Value, DisplayLabels: labelMap(v.Labels)})
	}
	for _, k := range sortedKeys(intv.PrecisionGauges) {
		v := intv.PrecisionGauges[k]
		out.PrecisionGauges = append(out.PrecisionGauges,
			metrics.PrecisionGaugeValue{Name: v.Name, Hash: k, Value: v.Value, DisplayLabels: labelMap(v.Labels)})
	}
	for _, m := range []struct {
		in  map[string]metrics.SampledValue
		out *[]metrics.SampledValue
	}{{intv.Counters, &out.Counters}, {intv.Samples, &out.Samples}} {
		for _, k := range sortedKeys(m.in) {
			if v := m.in[k]; v.AggregateSample != nil {
				agg := *v.AggregateSample
				*m.out = append(*m.out, metrics.SampledValue{Name: v.Name, Hash: k, AggregateSample: &agg,
					Mean: agg.Mean(), Stddev: agg.Stddev(), DisplayLabels: labelMap(v.Labels)})
			}
		}
	}
	return out
}

func labelMap(labels []metrics.Label) map[string]string {
	out := make(map[string]string, len(labels))
	for _, l := range labels {
		out[l.Name] = l.Value
	}
	return out
}

// Prometheus metric types of the rendered families.
const (
	promCounter = "counter"
	promGauge   = "gauge"
	promSummary = "summary"
)

// series is one metric with one label set, merged over the intervals.
type series struct {
	labels []metrics.Label
	value  float64 // counter: sum; gauge: last value; summary: sum
	count  int     // summary only
}

type family struct {
	name, typ string
	series    map[string]*series // by rendered labels
}

// RenderPrometheus renders src in the Prometheus text format, merged over
// all its retained intervals: counters as `counter` (the sum of the
// increments), gauges as `gauge` (the newest value), samples as `summary`
// with `_sum` and `_count` only (the sink keeps no quantiles). Names and
// label names have every character outside [a-zA-Z0-9_:] replaced by `_`
// (`nomad.client.alloc_hook.prerun.success` becomes
// `nomad_client_alloc_hook_prerun_success`). Output is sorted by family
// name and type, then by rendered labels, so it is byte-stable (DET-2).
// A nil source renders nothing.
func RenderPrometheus(src MetricsSource) string {
	if src == nil {
		return ""
	}
	fams := map[string]*family{}
	add := func(typ, name string, labels []metrics.Label, merge func(s *series)) {
		fname := sanitize(name, true)
		f, ok := fams[typ+" "+fname]
		if !ok {
			f = &family{name: fname, typ: typ, series: map[string]*series{}}
			fams[typ+" "+fname] = f
		}
		key := renderLabels(labels)
		s, ok := f.series[key]
		if !ok {
			s = &series{labels: slices.Clone(labels)}
			f.series[key] = s
		}
		merge(s)
	}
	for _, intv := range src.Data() {
		if intv == nil {
			continue
		}
		intv.RLock()
		for _, key := range sortedKeys(intv.Counters) {
			v := intv.Counters[key]
			if v.AggregateSample == nil {
				continue
			}
			add(promCounter, v.Name, v.Labels, func(s *series) { s.value += v.Sum })
		}
		for _, key := range sortedKeys(intv.Samples) {
			v := intv.Samples[key]
			if v.AggregateSample == nil {
				continue
			}
			add(promSummary, v.Name, v.Labels, func(s *series) { s.value += v.Sum; s.count += v.Count })
		}
		for _, key := range sortedKeys(intv.Gauges) {
			v := intv.Gauges[key]
			add(promGauge, v.Name, v.Labels, func(s *series) { s.value = float64(v.Value) })
		}
		for _, key := range sortedKeys(intv.PrecisionGauges) {
			v := intv.PrecisionGauges[key]
			add(promGauge, v.Name, v.Labels, func(s *series) { s.value = v.Value })
		}
		intv.RUnlock()
	}
	ordered := make([]*family, 0, len(fams))
	for _, f := range fams {
		ordered = append(ordered, f)
	}
	slices.SortFunc(ordered, func(a, b *family) int {
		return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.typ, b.typ))
	})
	var b strings.Builder
	for _, f := range ordered {
		fmt.Fprintf(&b, "# TYPE %s %s\n", f.name, f.typ)
		for _, key := range sortedKeys(f.series) {
			s := f.series[key]
			if f.typ == promSummary {
				fmt.Fprintf(&b, "%s_sum%s %s\n", f.name, key, formatValue(s.value))
				fmt.Fprintf(&b, "%s_count%s %d\n", f.name, key, s.count)
				continue
			}
			fmt.Fprintf(&b, "%s%s %s\n", f.name, key, formatValue(s.value))
		}
	}
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// renderLabels renders `{a="x",b="y"}` in the labels' own (emission)
// order, or "" without labels.
func renderLabels(labels []metrics.Label) string {
	if len(labels) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, l := range labels {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(sanitize(l.Name, false))
		b.WriteString(`="`)
		b.WriteString(escapeLabelValue(l.Value))
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

// sanitize makes a metric name (colons allowed) or a label name valid:
// characters outside [a-zA-Z0-9_] (and ':') become '_', a leading digit
// gets a '_' prefix, and an empty name is "_".
func sanitize(name string, colon bool) string {
	var b strings.Builder
	for i, r := range name {
		switch {
		case r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case r >= '0' && r <= '9':
			if i == 0 {
				b.WriteByte('_')
			}
		case r == ':' && colon:
		default:
			r = '_'
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

var labelValueEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

func escapeLabelValue(v string) string { return labelValueEscaper.Replace(v) }

// formatValue prints a sample value the shortest way that reads back
// exactly; infinities and NaN as Prometheus spells them.
func formatValue(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}
