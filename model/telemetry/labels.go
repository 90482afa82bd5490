package telemetry

// Label names, in their TELEM-2 order.
const (
	LabelNodeID     = "node_id"
	LabelDatacenter = "datacenter"
	LabelNodeClass  = "node_class"
	LabelNodePool   = "node_pool"
	LabelNamespace  = "namespace"
	LabelHookName   = "hook_name"
)

// NodeClassNone is the node_class label value of a node without a class
// (TELEM-2).
const NodeClassNone = "none"

// Label is one metric label.
type Label struct {
	Name  string
	Value string
}

// BaseLabels are the client's labels, built once at start (TELEM-2).
type BaseLabels struct {
	NodeID     string
	Datacenter string
	// NodeClass is the node's class; empty is reported as NodeClassNone.
	NodeClass string
	NodePool  string
}

// Labels returns the base labels in order: node_id, datacenter,
// node_class (none if empty), node_pool. A fresh slice each call.
func (b BaseLabels) Labels() []Label {
	class := b.NodeClass
	if class == "" {
		class = NodeClassNone
	}
	return []Label{
		{Name: LabelNodeID, Value: b.NodeID},
		{Name: LabelDatacenter, Value: b.Datacenter},
		{Name: LabelNodeClass, Value: class},
		{Name: LabelNodePool, Value: b.NodePool},
	}
}

// HookLabels returns the exact label list of one hook emission (TELEM-2):
// the base labels, then namespace (the alloc's), then hook_name. A fresh
// slice each call, so no two emissions share a backing array.
func HookLabels(base BaseLabels, namespace, hookName string) []Label {
	return append(base.Labels(),
		Label{Name: LabelNamespace, Value: namespace},
		Label{Name: LabelHookName, Value: hookName},
	)
}
