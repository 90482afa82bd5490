package hookstats_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	metrics "github.com/hashicorp/go-metrics"
	"github.com/shoenig/test/must"
)

// rig is one go-metrics instance on an in-memory sink.
type rig struct {
	sink    *metrics.InmemSink
	metrics *metrics.Metrics
}

func newRig(t *testing.T) rig {
	t.Helper()
	sink := hookstatstest.NewSink()
	m, err := hookstats.NewMetrics(sink)
	must.NoError(t, err)
	return rig{sink: sink, metrics: m}
}

func (r rig) read() []hookstatstest.Metric { return hookstatstest.Read(r.sink) }

// wantLabels is the TELEM-2 label list for base labels, namespace and hook.
func wantLabels(base []metrics.Label, namespace, hook string) []metrics.Label {
	return append(slices.Clone(base),
		metrics.Label{Name: "namespace", Value: namespace},
		metrics.Label{Name: "hook_name", Value: hook})
}

func diffMetrics(t *testing.T, want, got []hookstatstest.Metric) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("hookstatstest.Read mismatch (-want +got):\n%s", diff)
	}
}

// failingClock fails the test on any use (TELEM-5: the no-op handler need
// not read the clock; ours must not).
type failingClock struct{ t errorfer }

// errorfer is the part of testing.T failingClock reports to.
type errorfer interface {
	Errorf(format string, args ...any)
}

// probe records whether Errorf was called.
type probe struct {
	mu     sync.Mutex
	failed bool
}

func (p *probe) Errorf(string, ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failed = true
}

func (p *probe) Failed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.failed
}

var _ clock.Clock = failingClock{}

func (c failingClock) fail(method string) {
	c.t.Errorf("clock.%s called on the disabled handler", method)
}

func (c failingClock) After(time.Duration) <-chan time.Time { c.fail("After"); return nil }
func (c failingClock) AfterFunc(time.Duration, func()) *clock.Timer {
	c.fail("AfterFunc")
	return nil
}
func (c failingClock) Now() time.Time                      { c.fail("Now"); return time.Time{} }
func (c failingClock) Since(time.Time) time.Duration       { c.fail("Since"); return 0 }
func (c failingClock) Until(time.Time) time.Duration       { c.fail("Until"); return 0 }
func (c failingClock) Sleep(time.Duration)                 { c.fail("Sleep") }
func (c failingClock) Tick(time.Duration) <-chan time.Time { c.fail("Tick"); return nil }
func (c failingClock) Ticker(time.Duration) *clock.Ticker  { c.fail("Ticker"); return nil }
func (c failingClock) Timer(time.Duration) *clock.Timer    { c.fail("Timer"); return nil }
func (c failingClock) WithDeadline(ctx context.Context, _ time.Time) (context.Context, context.CancelFunc) {
	c.fail("WithDeadline")
	return ctx, func() {}
}
func (c failingClock) WithTimeout(ctx context.Context, _ time.Duration) (context.Context, context.CancelFunc) {
	c.fail("WithTimeout")
	return ctx, func() {}
}
