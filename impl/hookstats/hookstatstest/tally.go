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
	key   strings.Builder
}

// Add tallies one emission of kind (Counter or Sample) named name (the
// key's parts joined with ".") with labels and value val.
func (t *Tally) Add(kind Kind, name string, labels []metrics.Label, val float32) {
	t.key.Reset()
	writeUnderscored(&t.key, name)
	for _, l := range labels {
		t.key.WriteByte(';')
		writeUnderscored(&t.key, l.Name)
		t.key.WriteByte('=')
		writeUnderscored(&t.key, l.Value)
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
	m, ok := of[t.key.String()]
	if !ok {
		of[t.key.String()] = &Metric{Name: strings.ReplaceAll(name, " ", "_"), Labels: slices.Clone(labels),
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

// writeUnderscored writes s with every space an underscore.
func writeUnderscored(b *strings.Builder, s string) {
	for {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		b.WriteByte('_')
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
