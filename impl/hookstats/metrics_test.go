package hookstats_test

import (
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/benbjohnson/clock"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metrics "github.com/hashicorp/go-metrics"
	"github.com/shoenig/test/must"
)

// TestMetricsConfig checks TELEM-1's configuration: DefaultConfig("nomad")
// with host name prefix/label, service label and runtime metrics off, and
// no host name read.
func TestMetricsConfig(t *testing.T) {
	want := metrics.DefaultConfig("nomad")
	want.HostName = ""
	want.EnableHostname = false
	want.EnableHostnameLabel = false
	want.EnableRuntimeMetrics = false
	want.EnableServiceLabel = false
	if diff := cmp.Diff(want, hookstats.MetricsConfig()); diff != "" {
		t.Fatalf("MetricsConfig mismatch (-want +got):\n%s", diff)
	}

	r := newRig(t)
	if diff := cmp.Diff(*hookstats.MetricsConfig(), r.metrics.Config, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("NewMetrics config mismatch (-want +got):\n%s", diff)
	}
	must.NotEq(t, r.metrics, metrics.Default(), must.Sprint("NewMetrics installed the global instance"))
}

func TestNewMetricsNilSink(t *testing.T) {
	m, err := hookstats.NewMetrics(nil)
	must.Nil(t, m)
	must.ErrorContains(t, err, "hook metrics sink is nil")
}

// TestNoHostInKeysOrLabels checks TELEM-1 on the sink's raw keys: every
// key starts with `nomad.client.` and carries only TELEM-2 labels.
func TestNoHostInKeysOrLabels(t *testing.T) {
	r := newRig(t)
	clk := clock.NewMock()
	h := hookstats.New(hookstats.Config{Kind: hookstats.AllocHook, Metrics: r.metrics, Clock: clk,
		BaseLabels: hookstats.BaseLabels("n", "dc", "", "p"), Namespace: "default"})
	h.Emit(clk.Now(), "alloc_dir", hookstats.HookTypePrerun, nil)
	clk.Add(time.Millisecond)

	data := r.sink.Data()
	must.SliceLen(t, 1, data)
	const labels = ";node_id=n;datacenter=dc;node_class=none;node_pool=p;namespace=default;hook_name=alloc_dir"
	var keys []string
	for k := range data[0].Counters {
		keys = append(keys, k)
	}
	for k := range data[0].Samples {
		keys = append(keys, k)
	}
	must.SliceContainsAll(t, []string{
		"nomad.client.alloc_hook.prerun.success" + labels,
		"nomad.client.alloc_hook.prerun.elapsed" + labels,
	}, keys)
	for _, k := range keys {
		must.False(t, strings.Contains(k, "host"), must.Sprintf("key %q", k))
	}
}
