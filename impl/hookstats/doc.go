// Package hookstats records hook telemetry on github.com/hashicorp/go-metrics
// (SPEC §2, TELEM-1..5): one elapsed sample and one success or failed
// counter per execution of an alloc prerun hook or a task prestart hook.
//
// Wiring, once per component:
//
//  1. The client builds one *metrics.Metrics with NewMetrics (service name
//     `nomad`, no host prefix or label; TELEM-1) and its base labels with
//     BaseLabels (node_id, datacenter, node_class, node_pool; TELEM-2).
//  2. Each alloc runner builds New(Config{Kind: AllocHook, ...}) and each
//     task runner New(Config{Kind: TaskHook, ...}), passing the alloc's
//     namespace, which is appended to a private copy of the base labels
//     (TELEM-2). Disabled yields a no-op handler (TELEM-5).
//  3. The function that runs hooks reads start := clock.Now() before a
//     hook and calls Emit(start, hookName, hookType, err) after it, once per
//     hook execution (TELEM-3). Emit reads the injected clock once, records
//     elapsed = Now − start in float milliseconds with AddSampleWithLabels
//     (never MeasureSince, which reads the wall clock; TELEM-4), then
//     increments exactly one of `failed` (err ≠ nil) or `success`.
//
// Resulting keys, e.g. `nomad.client.alloc_hook.prerun.success` and
// `nomad.client.task_hook.prestart.elapsed`, each with labels node_id,
// datacenter, node_class, node_pool, namespace, hook_name in that order.
//
// Sub-package hookstatstest reads an in-memory sink back as a sorted,
// deterministic list for tests and properties.
package hookstats
