package hookstats_test

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/google/go-cmp/cmp"
	metrics "github.com/hashicorp/go-metrics"
	"github.com/shoenig/test/must"
)

// TestMetricName pins the six TELEM-1 names and the key parts behind them.
func TestMetricName(t *testing.T) {
	cases := []struct {
		kind     hookstats.Kind
		hookType string
		metric   string
		want     string
	}{
		{hookstats.AllocHook, hookstats.HookTypePrerun, hookstats.MetricSuccess, "nomad.client.alloc_hook.prerun.success"},
		{hookstats.AllocHook, hookstats.HookTypePrerun, hookstats.MetricFailed, "nomad.client.alloc_hook.prerun.failed"},
		{hookstats.AllocHook, hookstats.HookTypePrerun, hookstats.MetricElapsed, "nomad.client.alloc_hook.prerun.elapsed"},
		{hookstats.TaskHook, hookstats.HookTypePrestart, hookstats.MetricSuccess, "nomad.client.task_hook.prestart.success"},
		{hookstats.TaskHook, hookstats.HookTypePrestart, hookstats.MetricFailed, "nomad.client.task_hook.prestart.failed"},
		{hookstats.TaskHook, hookstats.HookTypePrestart, hookstats.MetricElapsed, "nomad.client.task_hook.prestart.elapsed"},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			must.EqOp(t, tc.want, hookstats.MetricName(tc.kind, tc.hookType, tc.metric))
			must.Eq(t, []string{"client", tc.kind.String(), tc.hookType, tc.metric},
				hookstats.Key(tc.kind, tc.hookType, tc.metric))
		})
	}
}

func TestKindString(t *testing.T) {
	cases := []struct {
		kind hookstats.Kind
		want string
	}{
		{hookstats.AllocHook, "alloc_hook"},
		{hookstats.TaskHook, "task_hook"},
		{0, "Kind(0)"},
		{7, "Kind(7)"},
	}
	for _, tc := range cases {
		must.EqOp(t, tc.want, tc.kind.String())
	}
}

// TestBaseLabels checks TELEM-2's base labels: exact names, order, and
// node_class `none` when empty.
func TestBaseLabels(t *testing.T) {
	cases := []struct {
		name                            string
		nodeID, dc, nodeClass, nodePool string
		want                            []metrics.Label
	}{
		{
			name:   "all set",
			nodeID: "9f1c", dc: "dc1", nodeClass: "gpu", nodePool: "default",
			want: []metrics.Label{{Name: "node_id", Value: "9f1c"}, {Name: "datacenter", Value: "dc1"},
				{Name: "node_class", Value: "gpu"}, {Name: "node_pool", Value: "default"}},
		},
		{
			name:   "empty node class is none",
			nodeID: "9f1c", dc: "dc2", nodeClass: "", nodePool: "batch",
			want: []metrics.Label{{Name: "node_id", Value: "9f1c"}, {Name: "datacenter", Value: "dc2"},
				{Name: "node_class", Value: "none"}, {Name: "node_pool", Value: "batch"}},
		},
		{
			name: "other empty values stay empty",
			want: []metrics.Label{{Name: "node_id"}, {Name: "datacenter"},
				{Name: "node_class", Value: "none"}, {Name: "node_pool"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := hookstats.BaseLabels(tc.nodeID, tc.dc, tc.nodeClass, tc.nodePool)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("BaseLabels mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestElapsedMillis pins the ns/1e6 conversion of TELEM-4, narrowed to
// go-metrics' float32.
func TestElapsedMillis(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want float32
	}{
		{0, 0},
		{3 * time.Second, 3000},
		{1500 * time.Microsecond, 1.5},
		{time.Nanosecond, 1e-6},
		{24 * time.Hour, 86_400_000},
		{-2 * time.Millisecond, -2},
	}
	for _, tc := range cases {
		must.EqOp(t, tc.want, hookstats.ElapsedMillis(tc.d), must.Sprintf("ElapsedMillis(%v)", tc.d))
	}
}
