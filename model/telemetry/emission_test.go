package telemetry

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

var base = BaseLabels{NodeID: "node-1", Datacenter: "dc1", NodeClass: "gpu", NodePool: "default"}

func labels(class, ns, hook string) []Label {
	return []Label{
		{"node_id", "node-1"}, {"datacenter", "dc1"}, {"node_class", class},
		{"node_pool", "default"}, {"namespace", ns}, {"hook_name", hook},
	}
}

// TestTELEM_ExpectedForHook checks the exact emissions of TELEM-1..4.
func TestTELEM_ExpectedForHook(t *testing.T) {
	boom := errors.New("boom")
	cases := []struct {
		name     string
		kind     HookKind
		hookType string
		hook     string
		base     BaseLabels
		elapsed  time.Duration
		err      error
		want     []Emission
	}{
		{name: "TELEM-3 alloc prerun success", kind: AllocHook, hookType: "prerun", hook: "alloc_dir",
			base: base, elapsed: 3 * time.Second,
			want: []Emission{
				{Key: []string{"client", "alloc_hook", "prerun", "elapsed"}, Kind: Sample,
					Labels: labels("gpu", "web", "alloc_dir"), Value: 3000},
				{Key: []string{"client", "alloc_hook", "prerun", "success"}, Kind: Counter,
					Labels: labels("gpu", "web", "alloc_dir"), Value: 1},
			}},
		{name: "TELEM-3 alloc prerun failure", kind: AllocHook, hookType: "prerun", hook: "csi_hook",
			base: base, elapsed: 1500 * time.Microsecond, err: boom,
			want: []Emission{
				{Key: []string{"client", "alloc_hook", "prerun", "elapsed"}, Kind: Sample,
					Labels: labels("gpu", "web", "csi_hook"), Value: 1.5},
				{Key: []string{"client", "alloc_hook", "prerun", "failed"}, Kind: Counter,
					Labels: labels("gpu", "web", "csi_hook"), Value: 1},
			}},
		{name: "TELEM-2 empty node class is none", kind: TaskHook, hookType: "prestart", hook: "volumes",
			base: BaseLabels{NodeID: "node-1", Datacenter: "dc1", NodePool: "default"}, elapsed: 1,
			want: []Emission{
				{Key: []string{"client", "task_hook", "prestart", "elapsed"}, Kind: Sample,
					Labels: labels("none", "web", "volumes"), Value: 0.000001},
				{Key: []string{"client", "task_hook", "prestart", "success"}, Kind: Counter,
					Labels: labels("none", "web", "volumes"), Value: 1},
			}},
		{name: "TELEM-3 task prestart failure, zero elapsed", kind: TaskHook, hookType: "prestart", hook: "validate",
			base: base, err: boom,
			want: []Emission{
				{Key: []string{"client", "task_hook", "prestart", "elapsed"}, Kind: Sample,
					Labels: labels("gpu", "web", "validate"), Value: 0},
				{Key: []string{"client", "task_hook", "prestart", "failed"}, Kind: Counter,
					Labels: labels("gpu", "web", "validate"), Value: 1},
			}},
		{name: "TELEM-1 alloc postrun not instrumented", kind: AllocHook, hookType: "postrun", hook: "csi_hook", base: base},
		{name: "TELEM-1 task poststart not instrumented", kind: TaskHook, hookType: "poststart", hook: "x", base: base},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ExpectedForHook(tc.kind, tc.hookType, tc.hook, tc.base, "web", tc.elapsed, tc.err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("ExpectedForHook (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTELEM2_LabelSlicesAreCopied: no two emissions share labels, and the
// base labels are rebuilt per call.
func TestTELEM2_LabelSlicesAreCopied(t *testing.T) {
	em := ExpectedForHook(AllocHook, HookTypePrerun, "alloc_dir", base, "web", time.Millisecond, nil)
	must.Len(t, 2, em)
	em[0].Labels[5].Value = "mutated"
	em[0].Labels = append(em[0].Labels[:2], Label{"host", "h"})
	must.Eq(t, labels("gpu", "web", "alloc_dir"), em[1].Labels)

	b := base.Labels()
	b[0].Value = "mutated"
	must.Eq(t, "node-1", base.Labels()[0].Value)
	h := HookLabels(base, "ns", "a")
	h2 := append(h[:6:6], Label{"x", "y"})
	must.Eq(t, labels("gpu", "ns", "a"), h)
	must.Len(t, 7, h2)
}

// TestTELEM1_Instrumented: only alloc prerun and task prestart.
func TestTELEM1_Instrumented(t *testing.T) {
	cases := []struct {
		kind     HookKind
		hookType string
		want     bool
	}{
		{AllocHook, "prerun", true},
		{TaskHook, "prestart", true},
		{AllocHook, "prestart", false},
		{TaskHook, "prerun", false},
		{AllocHook, "postrun", false},
		{AllocHook, "destroy", false},
		{AllocHook, "update", false},
		{AllocHook, "prekill", false},
		{AllocHook, "shutdown", false},
		{TaskHook, "poststart", false},
		{TaskHook, "prekill", false},
		{TaskHook, "exited", false},
		{TaskHook, "update", false},
		{TaskHook, "stop", false},
		{HookKind(7), "prerun", false},
	}
	for _, tc := range cases {
		must.Eq(t, tc.want, Instrumented(tc.kind, tc.hookType), must.Sprintf("Instrumented(%v, %q)", tc.kind, tc.hookType))
	}
}

// TestTELEM1_Names pins the flattened metric names.
func TestTELEM1_Names(t *testing.T) {
	cases := []struct {
		kind     HookKind
		hookType string
		metric   string
		want     string
	}{
		{AllocHook, HookTypePrerun, MetricSuccess, "nomad.client.alloc_hook.prerun.success"},
		{AllocHook, HookTypePrerun, MetricFailed, "nomad.client.alloc_hook.prerun.failed"},
		{AllocHook, HookTypePrerun, MetricElapsed, "nomad.client.alloc_hook.prerun.elapsed"},
		{TaskHook, HookTypePrestart, MetricSuccess, "nomad.client.task_hook.prestart.success"},
		{TaskHook, HookTypePrestart, MetricFailed, "nomad.client.task_hook.prestart.failed"},
		{TaskHook, HookTypePrestart, MetricElapsed, "nomad.client.task_hook.prestart.elapsed"},
	}
	for _, tc := range cases {
		must.Eq(t, tc.want, Name(Key(tc.kind, tc.hookType, tc.metric)))
		must.Eq(t, tc.want, Emission{Key: Key(tc.kind, tc.hookType, tc.metric)}.Name())
	}
	must.Eq(t, "alloc_hook", AllocHook.String())
	must.Eq(t, "task_hook", TaskHook.String())
	must.Eq(t, "hook_kind(9)", HookKind(9).String())
	must.Eq(t, "counter", Counter.String())
	must.Eq(t, "sample", Sample.String())
	must.Eq(t, "kind(9)", Kind(9).String())
}

// TestTELEM4_ElapsedMillis: ns / 1e6.
func TestTELEM4_ElapsedMillis(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want float64
	}{
		{0, 0},
		{time.Millisecond, 1},
		{3 * time.Second, 3000},
		{1500 * time.Microsecond, 1.5},
		{1, 1e-6},
		{2*time.Hour + 7*time.Nanosecond, 7200000.000007},
	}
	for _, tc := range cases {
		must.Eq(t, tc.want, ElapsedMillis(tc.d), must.Sprintf("ElapsedMillis(%v)", tc.d))
	}
}

func TestTELEM_SinkKey(t *testing.T) {
	e := Emission{
		Key:    Key(TaskHook, HookTypePrestart, MetricSuccess),
		Labels: HookLabels(BaseLabels{NodeID: "n 1", Datacenter: "dc1", NodePool: "p"}, "ns", "task dir"),
	}
	must.Eq(t, "nomad.client.task_hook.prestart.success;node_id=n_1;datacenter=dc1;node_class=none;"+
		"node_pool=p;namespace=ns;hook_name=task_dir", e.SinkKey())
}
