package telemetry

import (
	"strings"
	"time"
)

// Emission is one go-metrics call a hook execution must make.
type Emission struct {
	// Key is the key passed to go-metrics, without the service name.
	Key []string
	// Kind says which call: IncrCounterWithLabels or AddSampleWithLabels.
	Kind Kind
	// Labels is the exact label list, in order (TELEM-2).
	Labels []Label
	// Value is 1 for a counter, elapsed milliseconds for a sample.
	// go-metrics takes float32: the value recorded is float32(Value).
	Value float64
}

// Name is the emission's flattened metric name (see Name).
func (e Emission) Name() string { return Name(e.Key) }

// SinkKey is the key under which go-metrics' in-memory sink files the
// emission: the name followed by ";<label>=<value>" per label, in order,
// with spaces replaced by underscores.
func (e Emission) SinkKey() string {
	var sb strings.Builder
	sb.WriteString(e.Name())
	for _, l := range e.Labels {
		sb.WriteString(";" + l.Name + "=" + l.Value)
	}
	return strings.ReplaceAll(sb.String(), " ", "_")
}

// ElapsedMillis is TELEM-4's sample value: elapsed nanoseconds / 1e6.
func ElapsedMillis(elapsed time.Duration) float64 {
	return float64(elapsed.Nanoseconds()) / 1e6
}

// ExpectedForHook returns the emissions of one execution of hook hookName
// of kind and hookType that took elapsed on the injected clock and
// returned err (TELEM-3, TELEM-4): one elapsed sample in milliseconds, then
// one counter +1, failed if err is non-nil, else success, each with its own
// copy of the TELEM-2 labels. Hook kinds and types that are not
// instrumented emit nothing (nil).
func ExpectedForHook(kind HookKind, hookType, hookName string, base BaseLabels,
	namespace string, elapsed time.Duration, err error) []Emission {
	if !Instrumented(kind, hookType) {
		return nil
	}
	outcome := MetricSuccess
	if err != nil {
		outcome = MetricFailed
	}
	return []Emission{
		{
			Key:    Key(kind, hookType, MetricElapsed),
			Kind:   Sample,
			Labels: HookLabels(base, namespace, hookName),
			Value:  ElapsedMillis(elapsed),
		},
		{
			Key:    Key(kind, hookType, outcome),
			Kind:   Counter,
			Labels: HookLabels(base, namespace, hookName),
			Value:  1,
		},
	}
}
