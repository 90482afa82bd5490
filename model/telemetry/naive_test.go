package telemetry

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// This file is a deliberately naive second implementation of TELEM-1..4
// and of AR-4/AR-5's hook orders, written from SPEC.md's text alone, and
// the property tests that compare the package with it. It writes the
// metric names out as strings (no key parts), builds labels in a literal,
// and walks the hooks with a plain loop.
//
// Readings of SPEC text the naive code had to choose:
//   - "float ms (ns/1e6)" is float64(nanoseconds)/1e6, exactly that
//     division;
//   - a prerun pass emits for the hooks it runs: up to and including the
//     first failure (its index failedAt; out of range = none fails);
//   - a prestart hook marked done is skipped and emits nothing, so a
//     planned failure at a done hook fails nothing.

// naiveEmission is one go-metrics call: name, kind, labels as
// "name=value" and the value.
type naiveEmission struct {
	Name   string
	Kind   string // counter or sample
	Labels string
	Value  float64
}

// naiveExpected is TELEM-1..4 for one hook execution.
func naiveExpected(kind, hookType, hook string, base BaseLabels, namespace string, elapsed time.Duration, err error) []naiveEmission {
	// TELEM-1: only nomad.client.alloc_hook.prerun.* and
	// nomad.client.task_hook.prestart.*.
	if !(kind == "alloc_hook" && hookType == "prerun") && !(kind == "task_hook" && hookType == "prestart") {
		return nil
	}
	class := base.NodeClass
	if class == "" {
		class = "none"
	}
	// TELEM-2: node_id, datacenter, node_class, node_pool, namespace,
	// hook_name, in order.
	labels := fmt.Sprintf("node_id=%s,datacenter=%s,node_class=%s,node_pool=%s,namespace=%s,hook_name=%s",
		base.NodeID, base.Datacenter, class, base.NodePool, namespace, hook)
	prefix := "nomad.client." + kind + "." + hookType + "."
	outcome := "success"
	if err != nil {
		outcome = "failed"
	}
	// TELEM-3: one elapsed sample, then exactly one counter +1.
	return []naiveEmission{
		{prefix + "elapsed", "sample", labels, float64(elapsed.Nanoseconds()) / 1e6},
		{prefix + outcome, "counter", labels, 1},
	}
}

// naiveFromModel renders the package's emissions the naive way.
func naiveFromModel(es []Emission) []naiveEmission {
	var out []naiveEmission
	for _, e := range es {
		var ls []string
		for _, l := range e.Labels {
			ls = append(ls, l.Name+"="+l.Value)
		}
		out = append(out, naiveEmission{Name: e.Name(), Kind: e.Kind.String(), Labels: strings.Join(ls, ","), Value: e.Value})
	}
	return out
}

func naiveEqual(a, b []naiveEmission) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		// Values compare bit for bit: the sample is fixed arithmetic.
		if a[i].Name != b[i].Name || a[i].Kind != b[i].Kind || a[i].Labels != b[i].Labels ||
			math.Float64bits(a[i].Value) != math.Float64bits(b[i].Value) {
			return false
		}
	}
	return true
}

// naivePrerun is TELEM-3's prerun pass over AR-4's order.
func naivePrerun(failedAt int, shouldRun bool) []HookRun {
	if !shouldRun {
		return nil
	}
	var out []HookRun
	for i, h := range []string{"alloc_dir", "await_previous_allocations", "migrate_disk", "csi_hook"} {
		out = append(out, HookRun{Name: h, Failed: i == failedAt})
		if i == failedAt {
			break
		}
	}
	return out
}

// naivePrestart is TELEM-3's prestart pass over AR-5's order.
func naivePrestart(done map[string]bool, failedAt int) []HookRun {
	var out []HookRun
	for i, h := range []string{"validate", "task_dir", "volumes"} {
		if done[h] {
			continue
		}
		out = append(out, HookRun{Name: h, Failed: i == failedAt})
		if i == failedAt {
			break
		}
	}
	return out
}

// TestNaive_TELEM_ExpectedForHook compares ExpectedForHook with the naive
// TELEM-1..4 on generated executions.
func TestNaive_TELEM_ExpectedForHook(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		kind := rapid.SampledFrom([]HookKind{AllocHook, TaskHook}).Draw(rt, "kind")
		hookType := rapid.SampledFrom([]string{"prerun", "prestart", "postrun", "poststart", "update"}).Draw(rt, "hookType")
		word := rapid.StringMatching(`[a-z0-9_-]{0,6}`)
		base := BaseLabels{NodeID: word.Draw(rt, "node"), Datacenter: word.Draw(rt, "dc"),
			NodeClass: rapid.SampledFrom([]string{"", "", "gpu"}).Draw(rt, "class"), NodePool: word.Draw(rt, "pool")}
		ns, hook := word.Draw(rt, "namespace"), word.Draw(rt, "hook")
		elapsed := time.Duration(rapid.Int64Range(0, int64(48*time.Hour)).Draw(rt, "elapsed"))
		var err error
		if rapid.Bool().Draw(rt, "failed") {
			err = errors.New("boom")
		}
		got := naiveFromModel(ExpectedForHook(kind, hookType, hook, base, ns, elapsed, err))
		want := naiveExpected(kind.String(), hookType, hook, base, ns, elapsed, err)
		if !naiveEqual(got, want) {
			rt.Fatalf("TELEM ExpectedForHook(%s, %s, %q, %+v, %q, %v, %v):\n model: %+v\n naive: %+v",
				kind, hookType, hook, base, ns, elapsed, err, got, want)
		}
		if ms := ElapsedMillis(elapsed); math.Float64bits(ms) != math.Float64bits(float64(elapsed.Nanoseconds())/1e6) {
			rt.Fatalf("TELEM-4 ElapsedMillis(%v):\n model: %v\n naive: %v", elapsed, ms, float64(elapsed.Nanoseconds())/1e6)
		}
	})
}

// TestNaive_TELEM3_Passes compares the prerun and prestart passes with
// the naive TELEM-3.
func TestNaive_TELEM3_Passes(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		failedAt := rapid.IntRange(-2, 5).Draw(rt, "failedAt")
		shouldRun := rapid.Bool().Draw(rt, "shouldRun")
		got, want := ExpectedPrerunEmissions(PrerunHookOrder(), failedAt, shouldRun), naivePrerun(failedAt, shouldRun)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			rt.Fatalf("TELEM-3 prerun(failedAt %d, shouldRun %v):\n model: %v\n naive: %v", failedAt, shouldRun, got, want)
		}
		done := map[string]bool{}
		for _, h := range []string{"validate", "task_dir", "volumes"} {
			done[h] = rapid.Bool().Draw(rt, "done/"+h)
		}
		got, want = ExpectedPrestartEmissions(PrestartHookOrder(), done, failedAt), naivePrestart(done, failedAt)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			rt.Fatalf("TELEM-3 prestart(done %v, failedAt %d):\n model: %v\n naive: %v", done, failedAt, got, want)
		}
	})
}

// TestNaive_TELEM_Vectors pins TELEM-1, TELEM-2 and TELEM-4 with the
// SPEC's own examples.
func TestNaive_TELEM_Vectors(t *testing.T) {
	base := BaseLabels{NodeID: "n1", Datacenter: "dc1", NodePool: "default"}
	const labels = "node_id=n1,datacenter=dc1,node_class=none,node_pool=default,namespace=prod,hook_name=csi_hook"
	cases := []struct {
		name    string
		kind    HookKind
		typ     string
		elapsed time.Duration
		err     error
		want    []naiveEmission
	}{
		{"a prerun hook blocking 3 simulated seconds records 3000 (TELEM-4)", AllocHook, "prerun", 3 * time.Second, nil, []naiveEmission{
			{"nomad.client.alloc_hook.prerun.elapsed", "sample", labels, 3000},
			{"nomad.client.alloc_hook.prerun.success", "counter", labels, 1}}},
		{"a failed prestart hook", TaskHook, "prestart", 1500 * time.Microsecond, errors.New("x"), []naiveEmission{
			{"nomad.client.task_hook.prestart.elapsed", "sample", labels, 1.5},
			{"nomad.client.task_hook.prestart.failed", "counter", labels, 1}}},
		{"no other hook kind is instrumented (TELEM-1)", AllocHook, "postrun", time.Second, nil, nil},
		{"task poststart is not instrumented", TaskHook, "poststart", time.Second, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := naiveFromModel(ExpectedForHook(c.kind, c.typ, "csi_hook", base, "prod", c.elapsed, c.err))
			nv := naiveExpected(c.kind.String(), c.typ, "csi_hook", base, "prod", c.elapsed, c.err)
			if !naiveEqual(got, c.want) || !naiveEqual(nv, c.want) {
				t.Fatalf("ExpectedForHook:\n model: %+v\n naive: %+v\n  want: %+v", got, nv, c.want)
			}
		})
	}
}
