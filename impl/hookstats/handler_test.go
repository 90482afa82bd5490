package hookstats_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/benbjohnson/clock"
	metrics "github.com/hashicorp/go-metrics"
	"github.com/shoenig/test/must"
)

var errHook = errors.New("hook failed")

// TestEmit checks TELEM-1..4 for single emissions: the key per kind and
// outcome, one elapsed sample plus exactly one counter, labels in order.
func TestEmit(t *testing.T) {
	base := hookstats.BaseLabels("node-1", "dc1", "", "default")
	cases := []struct {
		name     string
		kind     hookstats.Kind
		hookType string
		hook     string
		err      error
		elapsed  time.Duration
		want     func(ls []metrics.Label) []hookstatstest.Metric
	}{
		{
			name: "alloc prerun success", kind: hookstats.AllocHook, hookType: "prerun",
			hook: "alloc_dir", elapsed: 3 * time.Second,
			want: func(ls []metrics.Label) []hookstatstest.Metric {
				return []hookstatstest.Metric{
					{Name: "nomad.client.alloc_hook.prerun.elapsed", Labels: ls, Kind: hookstatstest.Sample, Count: 1, Sum: 3000, Min: 3000, Max: 3000},
					{Name: "nomad.client.alloc_hook.prerun.success", Labels: ls, Kind: hookstatstest.Counter, Count: 1, Sum: 1, Min: 1, Max: 1},
				}
			},
		},
		{
			name: "alloc prerun failure", kind: hookstats.AllocHook, hookType: "prerun",
			hook: "csi_hook", err: errHook, elapsed: 250 * time.Millisecond,
			want: func(ls []metrics.Label) []hookstatstest.Metric {
				return []hookstatstest.Metric{
					{Name: "nomad.client.alloc_hook.prerun.elapsed", Labels: ls, Kind: hookstatstest.Sample, Count: 1, Sum: 250, Min: 250, Max: 250},
					{Name: "nomad.client.alloc_hook.prerun.failed", Labels: ls, Kind: hookstatstest.Counter, Count: 1, Sum: 1, Min: 1, Max: 1},
				}
			},
		},
		{
			name: "task prestart success, zero elapsed", kind: hookstats.TaskHook, hookType: "prestart",
			hook: "task_dir",
			want: func(ls []metrics.Label) []hookstatstest.Metric {
				return []hookstatstest.Metric{
					{Name: "nomad.client.task_hook.prestart.elapsed", Labels: ls, Kind: hookstatstest.Sample, Count: 1},
					{Name: "nomad.client.task_hook.prestart.success", Labels: ls, Kind: hookstatstest.Counter, Count: 1, Sum: 1, Min: 1, Max: 1},
				}
			},
		},
		{
			name: "task prestart failure, fractional ms", kind: hookstats.TaskHook, hookType: "prestart",
			hook: "volumes", err: errHook, elapsed: 1500 * time.Microsecond,
			want: func(ls []metrics.Label) []hookstatstest.Metric {
				return []hookstatstest.Metric{
					{Name: "nomad.client.task_hook.prestart.elapsed", Labels: ls, Kind: hookstatstest.Sample, Count: 1, Sum: 1.5, Min: 1.5, Max: 1.5},
					{Name: "nomad.client.task_hook.prestart.failed", Labels: ls, Kind: hookstatstest.Counter, Count: 1, Sum: 1, Min: 1, Max: 1},
				}
			},
		},
		{
			name: "hook type is a parameter", kind: hookstats.TaskHook, hookType: "poststart",
			hook: "x", elapsed: time.Millisecond,
			want: func(ls []metrics.Label) []hookstatstest.Metric {
				return []hookstatstest.Metric{
					{Name: "nomad.client.task_hook.poststart.elapsed", Labels: ls, Kind: hookstatstest.Sample, Count: 1, Sum: 1, Min: 1, Max: 1},
					{Name: "nomad.client.task_hook.poststart.success", Labels: ls, Kind: hookstatstest.Counter, Count: 1, Sum: 1, Min: 1, Max: 1},
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			clk := clock.NewMock()
			h := hookstats.New(hookstats.Config{Kind: tc.kind, Metrics: r.metrics, Clock: clk, BaseLabels: base, Namespace: "prod"})
			start := clk.Now()
			clk.Add(tc.elapsed)
			h.Emit(start, tc.hook, tc.hookType, tc.err)
			diffMetrics(t, tc.want(wantLabels(base, "prod", tc.hook)), r.read())
		})
	}
}

// TestElapsedBlockingHook checks TELEM-4 end to end: a hook that blocks on
// the injected clock for 3 simulated seconds records exactly 3000 ms.
func TestElapsedBlockingHook(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		clk := clock.NewMock()
		h := hookstats.New(hookstats.Config{Kind: hookstats.AllocHook, Metrics: r.metrics, Clock: clk, Namespace: "default"})

		done := make(chan struct{})
		go func() {
			defer close(done)
			start := clk.Now()
			<-clk.After(3 * time.Second) // the hook's blocking wait
			h.Emit(start, "csi_hook", hookstats.HookTypePrerun, nil)
		}()
		synctest.Wait() // the hook has armed its timer
		clk.Add(time.Second)
		synctest.Wait()
		must.SliceEmpty(t, r.read()) // still blocked after 1 s
		clk.Add(2 * time.Second)
		<-done

		ls := wantLabels(nil, "default", "csi_hook")
		diffMetrics(t, []hookstatstest.Metric{
			{Name: "nomad.client.alloc_hook.prerun.elapsed", Labels: ls, Kind: hookstatstest.Sample, Count: 1, Sum: 3000, Min: 3000, Max: 3000},
			{Name: "nomad.client.alloc_hook.prerun.success", Labels: ls, Kind: hookstatstest.Counter, Count: 1, Sum: 1, Min: 1, Max: 1},
		}, r.read())
	})
}

// TestDisabledIsNoop checks TELEM-5: the disabled handler emits nothing
// and never touches the clock, and needs neither Metrics nor Clock.
func TestDisabledIsNoop(t *testing.T) {
	r := newRig(t)
	cases := []struct {
		name string
		cfg  hookstats.Config
	}{
		{"with metrics and a failing clock", hookstats.Config{Disabled: true, Kind: hookstats.AllocHook, Metrics: r.metrics, Clock: failingClock{t}, Namespace: "default"}},
		{"with nothing else set", hookstats.Config{Disabled: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := hookstats.New(tc.cfg)
			h.Emit(time.Unix(0, 0), "alloc_dir", hookstats.HookTypePrerun, nil)
			h.Emit(time.Unix(0, 0), "csi_hook", hookstats.HookTypePrerun, errHook)
			must.SliceEmpty(t, r.read())
		})
	}
}

// TestFailingClockFails shows the TELEM-5 check above can fail: the
// enabled handler reads the clock, and failingClock reports it.
func TestFailingClockFails(t *testing.T) {
	r := newRig(t)
	probe := &probe{}
	h := hookstats.New(hookstats.Config{Kind: hookstats.AllocHook, Metrics: r.metrics, Clock: failingClock{probe}})
	h.Emit(time.Unix(0, 0), "alloc_dir", hookstats.HookTypePrerun, nil)
	must.True(t, probe.Failed(), must.Sprint("enabled Emit did not read the clock"))
}

func TestNewPanicsOnMiswiring(t *testing.T) {
	r := newRig(t)
	clk := clock.NewMock()
	cases := []struct {
		name string
		cfg  hookstats.Config
	}{
		{"zero kind", hookstats.Config{Metrics: r.metrics, Clock: clk}},
		{"unknown kind", hookstats.Config{Kind: 9, Metrics: r.metrics, Clock: clk}},
		{"nil metrics", hookstats.Config{Kind: hookstats.TaskHook, Clock: clk}},
		{"nil clock", hookstats.Config{Kind: hookstats.TaskHook, Metrics: r.metrics}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.Panic(t, func() { hookstats.New(tc.cfg) })
		})
	}
}

// TestLabelsAreCopied checks TELEM-2's "label slices are copied": a base
// slice with spare capacity is neither written past its length nor shared
// between handlers, later caller changes do not leak in, and concurrent
// Emits of one handler keep their own hook_name.
func TestLabelsAreCopied(t *testing.T) {
	r := newRig(t)
	clk := clock.NewMock()
	base := make([]metrics.Label, 0, 16) // spare capacity invites aliasing
	base = append(base, hookstats.BaseLabels("node-1", "dc1", "gpu", "default")...)
	want := hookstats.BaseLabels("node-1", "dc1", "gpu", "default")

	prod := hookstats.New(hookstats.Config{Kind: hookstats.TaskHook, Metrics: r.metrics, Clock: clk, BaseLabels: base, Namespace: "prod"})
	dev := hookstats.New(hookstats.Config{Kind: hookstats.TaskHook, Metrics: r.metrics, Clock: clk, BaseLabels: base, Namespace: "dev"})
	must.Eq(t, metrics.Label{}, base[:5][4], must.Sprint("New wrote into the caller's spare capacity"))
	base[0].Value = "changed-after-new"

	const goroutines, emits = 8, 50
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for range emits {
				for _, h := range []hookstats.Handler{prod, dev} {
					h.Emit(clk.Now(), fmt.Sprintf("hook-%d", g), hookstats.HookTypePrestart, nil)
				}
			}
		})
	}
	wg.Wait()

	var wantMetrics []hookstatstest.Metric
	for _, ns := range []string{"dev", "prod"} {
		for g := range goroutines {
			ls := wantLabels(want, ns, fmt.Sprintf("hook-%d", g))
			wantMetrics = append(wantMetrics,
				hookstatstest.Metric{Name: "nomad.client.task_hook.prestart.elapsed", Labels: ls, Kind: hookstatstest.Sample, Count: emits},
				hookstatstest.Metric{Name: "nomad.client.task_hook.prestart.success", Labels: ls, Kind: hookstatstest.Counter, Count: emits, Sum: emits, Min: 1, Max: 1},
			)
		}
	}
	hookstatstest.Sort(wantMetrics)
	diffMetrics(t, wantMetrics, r.read())
}
