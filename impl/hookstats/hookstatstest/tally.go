package hookstatstest

import (
	"slices"
	"strings"

	metrics "github.com/hashicorp/go-metrics"
)

// Tally aggregates counter and sample emissions, given one by one in
// the order they were made, into what Read returns for an InmemSink
// (NewSink) that received them: the same flattened keys (dotted name and
// ";name=value" labels, spaces made underscores), so two emissions whose
// keys flatten alike are one metric named and labelled by the first, and
// the same count, sum, minimum and maximum of the values as float64.
// The simulator tallies its emission log instead of keeping a sink: an
// InmemSink formats every emission's key with fmt, which was 3 % of a
// conformance check's CPU. The zero Tally is empty and ready to use.
type Tally struct {
	byKey map[Kind]map[string]*Metric
	key   []byte // the flattened key being built, reused
}

// Add tallies one emission of kind (Counter or Sample) named name (the
// key's parts joined with ".") with labels and value val.
func (t *Tally) Add(kind Kind, name string, labels []metrics.Label, val float32) {
	t.key = appendUnderscored(t.key[:0], name)
	for _, l := range labels {
		t.key = append(t.key, ';')
		t.key = appendUnderscored(t.key, l.Name)
		t.key = append(t.key, '=')
		t.key = appendUnderscored(t.key, l.Value)
	}
	if t.byKey == nil {
		t.byKey = map[Kind]map[string]*Metric{}
	}
	of := t.byKey[kind]
	if of == nil {
		of = map[string]*Metric{}
		t.byKey[kind] = of
	}
	v := float64(val)
	m, ok := of[string(t.key)]
	if !ok {
		of[string(t.key)] = &Metric{Name: strings.ReplaceAll(name, " ", "_"), Labels: slices.Clone(labels),
			Kind: kind, Count: 1, Sum: v, Min: v, Max: v}
		return
	}
	m.Count++
	m.Sum += v
	// As AggregateSample.Ingest compares (not min and max, which differ
	// on NaN and signed zeros).
	if v < m.Min {
		m.Min = v
	}
	if v > m.Max {
		m.Max = v
	}
}

// appendUnderscored appends s with every space an underscore.
func appendUnderscored(b []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			return append(b, s...)
		}
		b = append(append(b, s[:i]...), '_')
		s = s[i+1:]
	}
}

// Metrics is the tally so far, sorted as Read sorts; nil when nothing
// was added.
func (t *Tally) Metrics() []Metric {
	var out []Metric
	for _, kind := range []Kind{Counter, Sample} {
		for _, m := range t.byKey[kind] {
			out = append(out, *m)
		}
	}
	Sort(out)
	return out
}
