package telemetry

import (
	"fmt"
	"strings"
)

// ServiceName is the go-metrics service name, prefixed to every key;
// no host prefix or label is added (TELEM-1).
const ServiceName = "nomad"

// Key parts of TELEM-1.
const (
	PartClient    = "client"
	PartAllocHook = "alloc_hook"
	PartTaskHook  = "task_hook"

	HookTypePrerun   = "prerun"
	HookTypePrestart = "prestart"

	MetricSuccess = "success"
	MetricFailed  = "failed"
	MetricElapsed = "elapsed"
)

// HookKind says whose hook ran: an alloc runner's or a task runner's.
type HookKind int

// Hook kinds.
const (
	AllocHook HookKind = iota
	TaskHook
)

// String returns the kind's key part: "alloc_hook" or "task_hook".
func (k HookKind) String() string {
	switch k {
	case AllocHook:
		return PartAllocHook
	case TaskHook:
		return PartTaskHook
	default:
		return fmt.Sprintf("hook_kind(%d)", int(k))
	}
}

// Kind is a metric's go-metrics kind.
type Kind int

// Metric kinds used by hook telemetry.
const (
	// Counter: IncrCounterWithLabels.
	Counter Kind = iota
	// Sample: AddSampleWithLabels.
	Sample
)

// String returns "counter" or "sample".
func (k Kind) String() string {
	switch k {
	case Counter:
		return "counter"
	case Sample:
		return "sample"
	default:
		return fmt.Sprintf("kind(%d)", int(k))
	}
}

// Instrumented reports whether executions of hooks of this kind and type
// emit metrics: only alloc prerun and task prestart (TELEM-1).
func Instrumented(kind HookKind, hookType string) bool {
	return (kind == AllocHook && hookType == HookTypePrerun) ||
		(kind == TaskHook && hookType == HookTypePrestart)
}

// Key is the go-metrics key, without the service name go-metrics
// prepends: client, <kind>, <hookType>, <metric> (TELEM-1). A fresh slice
// each call.
func Key(kind HookKind, hookType, metric string) []string {
	return []string{PartClient, kind.String(), hookType, metric}
}

// Name is the flattened metric name of a key as sinks show it:
// "nomad." + the key parts joined by dots, e.g.
// nomad.client.alloc_hook.prerun.elapsed.
func Name(key []string) string {
	return ServiceName + "." + strings.Join(key, ".")
}
