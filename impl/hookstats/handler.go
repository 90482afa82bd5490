package hookstats

import (
	"time"

	"github.com/benbjohnson/clock"
	metrics "github.com/hashicorp/go-metrics"
)

// Handler records the telemetry of hook executions (TELEM-3).
type Handler interface {
	// Emit records one hook execution that started at start (read from
	// the same injected clock) and ended now: one `elapsed` sample, then
	// one `failed` (err ≠ nil) or `success` counter increment, all
	// labelled with hook_name = hookName. hookType is the third key part
	// (`prerun` or `prestart`, TELEM-1). Safe for concurrent use.
	Emit(start time.Time, hookName, hookType string, err error)
	// Skipped records a done hook not run: nothing (TELEM-3).
	Skipped(hookName, hookType string)
}

// Config configures a Handler. Zero values: Disabled false means enabled;
// Metrics, Clock and a valid Kind are then required. BaseLabels may be nil
// (the labels then start at namespace). Namespace is used as given.
type Config struct {
	// Kind selects alloc_hook or task_hook keys. Required unless Disabled.
	Kind Kind
	// Metrics is the go-metrics instance, normally from NewMetrics.
	// Required unless Disabled.
	Metrics *metrics.Metrics
	// Clock is the injected clock elapsed time is read from (TELEM-4).
	// Required unless Disabled.
	Clock clock.Clock
	// BaseLabels are the client's labels (see BaseLabels). New copies
	// them; later changes to the caller's slice have no effect.
	BaseLabels []metrics.Label
	// Namespace is the alloc's namespace, appended as the namespace label.
	Namespace string
	// Disabled selects the no-op handler (TELEM-5:
	// disable_allocation_hook_metrics): it emits nothing and never reads
	// the clock; Kind, Metrics and Clock are then ignored.
	Disabled bool
}

// New returns the Handler for cfg: a no-op handler when cfg.Disabled, else
// one that emits on cfg.Metrics. Its labels are a private copy of
// cfg.BaseLabels followed by namespace (TELEM-2). New panics when an
// enabled cfg has an invalid Kind or a nil Metrics or Clock: that is a
// wiring mistake, not a runtime condition.
func New(cfg Config) Handler {
	if cfg.Disabled {
		return noop{}
	}
	switch {
	case !cfg.Kind.valid():
		panic("hookstats: config kind " + cfg.Kind.String() + " is not AllocHook or TaskHook")
	case cfg.Metrics == nil:
		panic("hookstats: config metrics is nil (set Disabled to turn hook metrics off)")
	case cfg.Clock == nil:
		panic("hookstats: config clock is nil")
	}
	labels := make([]metrics.Label, 0, len(cfg.BaseLabels)+1)
	labels = append(labels, cfg.BaseLabels...)
	labels = append(labels, metrics.Label{Name: LabelNamespace, Value: cfg.Namespace})
	return &handler{
		kind:   cfg.Kind,
		sink:   cfg.Metrics,
		clock:  cfg.Clock,
		labels: labels,
	}
}

// handler is the enabled Handler. It is immutable after New, so Emits may
// run concurrently.
type handler struct {
	kind   Kind
	sink   *metrics.Metrics
	clock  clock.Clock
	labels []metrics.Label // base labels + namespace; never appended to
}

func (h *handler) Emit(start time.Time, hookName, hookType string, err error) {
	elapsed := h.clock.Now().Sub(start)

	// A fresh, exactly sized slice per emission: concurrent Emits never
	// share a backing array, and nothing downstream can append into ours.
	labels := make([]metrics.Label, len(h.labels)+1)
	copy(labels, h.labels)
	labels[len(h.labels)] = metrics.Label{Name: LabelHookName, Value: hookName}

	h.sink.AddSampleWithLabels(Key(h.kind, hookType, MetricElapsed), ElapsedMillis(elapsed), labels)
	outcome := MetricSuccess
	if err != nil {
		outcome = MetricFailed
	}
	h.sink.IncrCounterWithLabels(Key(h.kind, hookType, outcome), 1, labels)
}

func (*handler) Skipped(string, string) {}

// noop is the disabled Handler (TELEM-5).
type noop struct{}

func (noop) Emit(time.Time, string, string, error) {}
func (noop) Skipped(string, string)                {}
