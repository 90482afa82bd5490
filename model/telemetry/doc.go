// Package telemetry states what hook telemetry a runner must emit (SPEC §2)
// as pure values: the metric keys, the exact label list, the one elapsed
// sample and one success-or-failed counter per hook execution, and which
// hook executions emit at all. The reference runner's hookstats package
// builds its go-metrics calls from these values; the conformance
// properties compare a run's in-memory sink against them.
//
// One instrumented hook execution (TELEM-3, TELEM-4) emits, in order:
//
//  1. a sample nomad.client.<kind>.<type>.elapsed of the injected clock's
//     elapsed time in milliseconds (ns/1e6);
//  2. a counter +1, nomad.client.<kind>.<type>.failed if the hook returned
//     an error, else nomad.client.<kind>.<type>.success;
//
// each with the labels node_id, datacenter, node_class (none if empty),
// node_pool, namespace, hook_name, in that order (TELEM-2). Only alloc
// prerun and task prestart hooks are instrumented (TELEM-1).
//
// Like the rest of model/ the package has no goroutines, clock reads or I/O.
package telemetry
