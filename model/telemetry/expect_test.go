package telemetry

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

func TestAR4_AR5_HookOrders(t *testing.T) {
	must.Eq(t, []string{"alloc_dir", "await_previous_allocations", "migrate_disk", "csi_hook"}, PrerunHookOrder())
	must.Eq(t, []string{"validate", "task_dir", "volumes"}, PrestartHookOrder())
	o := PrerunHookOrder()
	o[0] = "mutated"
	must.Eq(t, "alloc_dir", PrerunHookOrder()[0])
}

// TestTELEM3_ExpectedPrerunEmissions: each prerun hook in order, the first
// failure stops the pass, nothing when the alloc should not run.
func TestTELEM3_ExpectedPrerunEmissions(t *testing.T) {
	order := PrerunHookOrder()
	cases := []struct {
		name      string
		failedAt  int
		shouldRun bool
		want      []HookRun
	}{
		{name: "all succeed", failedAt: -1, shouldRun: true, want: []HookRun{
			{"alloc_dir", false}, {"await_previous_allocations", false}, {"migrate_disk", false}, {"csi_hook", false}}},
		{name: "first fails, later emit nothing", failedAt: 0, shouldRun: true, want: []HookRun{{"alloc_dir", true}}},
		{name: "third fails", failedAt: 2, shouldRun: true, want: []HookRun{
			{"alloc_dir", false}, {"await_previous_allocations", false}, {"migrate_disk", true}}},
		{name: "last fails", failedAt: 3, shouldRun: true, want: []HookRun{
			{"alloc_dir", false}, {"await_previous_allocations", false}, {"migrate_disk", false}, {"csi_hook", true}}},
		{name: "failedAt past the end fails nothing", failedAt: 4, shouldRun: true, want: []HookRun{
			{"alloc_dir", false}, {"await_previous_allocations", false}, {"migrate_disk", false}, {"csi_hook", false}}},
		{name: "should not run: no prerun, no metric", failedAt: -1, shouldRun: false},
		{name: "should not run even with a fault planned", failedAt: 1, shouldRun: false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ExpectedPrerunEmissions(order, tc.failedAt, tc.shouldRun)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("ExpectedPrerunEmissions (-want +got):\n%s", diff)
			}
		})
	}
	must.Nil(t, ExpectedPrerunEmissions(nil, -1, true))
}

// TestTELEM3_ExpectedPrestartEmissions: PrestartDone hooks are skipped and
// emit nothing; the first failure stops the pass.
func TestTELEM3_ExpectedPrestartEmissions(t *testing.T) {
	order := PrestartHookOrder()
	cases := []struct {
		name     string
		done     map[string]bool
		failedAt int
		want     []HookRun
	}{
		{name: "first pass, all succeed", failedAt: -1, want: []HookRun{
			{"validate", false}, {"task_dir", false}, {"volumes", false}}},
		{name: "restart after validate done", done: map[string]bool{"validate": true}, failedAt: -1,
			want: []HookRun{{"task_dir", false}, {"volumes", false}}},
		{name: "volumes fails", done: map[string]bool{"validate": true}, failedAt: 2,
			want: []HookRun{{"task_dir", false}, {"volumes", true}}},
		{name: "validate fails, later emit nothing", failedAt: 0, want: []HookRun{{"validate", true}}},
		{name: "a done hook cannot fail", done: map[string]bool{"validate": true}, failedAt: 0,
			want: []HookRun{{"task_dir", false}, {"volumes", false}}},
		{name: "all done: nothing emits", done: map[string]bool{"validate": true, "task_dir": true, "volumes": true},
			failedAt: 1},
		{name: "done flags of other hooks are ignored", done: map[string]bool{"pause": true}, failedAt: 1,
			want: []HookRun{{"validate", false}, {"task_dir", true}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ExpectedPrestartEmissions(order, tc.done, tc.failedAt)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("ExpectedPrestartEmissions (-want +got):\n%s", diff)
			}
		})
	}
}
