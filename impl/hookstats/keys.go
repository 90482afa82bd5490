package hookstats

import (
	"fmt"
	"strings"
	"time"

	metrics "github.com/hashicorp/go-metrics"

	"github.com/allocsim/allocsim/model/telemetry"
)

// Key parts and names fixed by TELEM-1 and TELEM-2. They are model/telemetry's
// (the spec lives once); hookstats re-exports them for its callers.
const (
	// ServiceName prefixes every key (TELEM-1).
	ServiceName = telemetry.ServiceName
	// KeyClient is the first key part after the service name.
	KeyClient = telemetry.PartClient
	// KeyAllocHook and KeyTaskHook are the second key part, per Kind.
	KeyAllocHook = telemetry.PartAllocHook
	KeyTaskHook  = telemetry.PartTaskHook

	// HookTypePrerun and HookTypePrestart are the only instrumented hook
	// types (TELEM-1): alloc prerun and task prestart.
	HookTypePrerun   = telemetry.HookTypePrerun
	HookTypePrestart = telemetry.HookTypePrestart

	// MetricElapsed, MetricSuccess and MetricFailed are the last key part:
	// a sample in milliseconds and two counters (TELEM-1).
	MetricElapsed = telemetry.MetricElapsed
	MetricSuccess = telemetry.MetricSuccess
	MetricFailed  = telemetry.MetricFailed

	// Label names, in emission order (TELEM-2).
	LabelNodeID     = telemetry.LabelNodeID
	LabelDatacenter = telemetry.LabelDatacenter
	LabelNodeClass  = telemetry.LabelNodeClass
	LabelNodePool   = telemetry.LabelNodePool
	LabelNamespace  = telemetry.LabelNamespace
	LabelHookName   = telemetry.LabelHookName

	// NodeClassNone is the node_class label value of a node without a class.
	NodeClassNone = telemetry.NodeClassNone
)

// Kind says whether a handler instruments alloc hooks or task hooks; it
// picks the second key part. The zero Kind is invalid.
type Kind uint8

const (
	// AllocHook handlers emit under `client.alloc_hook.<type>`.
	AllocHook Kind = iota + 1
	// TaskHook handlers emit under `client.task_hook.<type>`.
	TaskHook
)

// String returns the key part of k (`alloc_hook`, `task_hook`), or
// `Kind(<n>)` for an invalid Kind.
func (k Kind) String() string {
	switch k {
	case AllocHook:
		return KeyAllocHook
	case TaskHook:
		return KeyTaskHook
	default:
		return fmt.Sprintf("Kind(%d)", uint8(k))
	}
}

func (k Kind) valid() bool { return k == AllocHook || k == TaskHook }

// Key returns the go-metrics key handed to the Metrics instance, without
// the service name, which go-metrics prepends: `client`, kind, hookType,
// metric (TELEM-1). It returns a new slice on every call.
func Key(kind Kind, hookType, metric string) []string {
	return []string{KeyClient, kind.String(), hookType, metric}
}

// MetricName returns the full dotted name a sink records for Key(kind,
// hookType, metric), e.g. `nomad.client.alloc_hook.prerun.success`.
func MetricName(kind Kind, hookType, metric string) string {
	return strings.Join(append([]string{ServiceName}, Key(kind, hookType, metric)...), ".")
}

// BaseLabels returns the client's base labels, built once at client start
// (TELEM-2): node_id, datacenter, node_class (`none` when empty),
// node_pool, in that order. The result is a new slice.
func BaseLabels(nodeID, datacenter, nodeClass, nodePool string) []metrics.Label {
	if nodeClass == "" {
		nodeClass = NodeClassNone
	}
	return []metrics.Label{
		{Name: LabelNodeID, Value: nodeID},
		{Name: LabelDatacenter, Value: datacenter},
		{Name: LabelNodeClass, Value: nodeClass},
		{Name: LabelNodePool, Value: nodePool},
	}
}

// ElapsedMillis converts d to the value an elapsed sample records:
// nanoseconds / 1e6 as float64, then narrowed to float32 because
// go-metrics samples are float32 (TELEM-4). Expectations should compute
// sample values with this function to compare exactly.
func ElapsedMillis(d time.Duration) float32 {
	return float32(float64(d.Nanoseconds()) / 1e6)
}
