package syncpolicy

import (
	"errors"
	"fmt"
)

// Node statuses as the server stores them.
const (
	NodeStatusInitializing = "initializing"
	NodeStatusReady        = "ready"
	NodeStatusDown         = "down"
	NodeStatusDisconnected = "disconnected"
)

// Exact SYNC-4 messages of the server's Node.UpdateAlloc validation, in
// check order. The format verbs are substituted by ValidateUpdateAlloc.
const (
	MsgNoAllocs          = "must update at least one allocation"
	MsgMissingNodeID     = "missing node ID"
	MsgNodeNotFound      = "node %s not found"
	MsgNodeStatusBlocked = "node %s is not allowed to update allocs while in status %s"
	MsgEvalsSet          = "evals field must not be set"
)

// NodeMayUpdateAllocs reports whether a node in status may call
// Node.UpdateAlloc (SYNC-4). Only unresponsive nodes, down or disconnected,
// are refused: an initializing node must be able to report its allocs
// before it becomes ready, and any other status is accepted.
func NodeMayUpdateAllocs(status string) bool {
	return status != NodeStatusDown && status != NodeStatusDisconnected
}

// UpdateAllocRequest is the plain input of the SYNC-4 validation: the
// request's shape and what the server's state says about its node.
type UpdateAllocRequest struct {
	// Allocs is the number of allocs in the request.
	Allocs int
	// NodeID is the node ID of the request's first alloc.
	NodeID string
	// NodeFound reports whether the server knows that node.
	NodeFound bool
	// NodeStatus is that node's status when found.
	NodeStatus string
	// EvalsSet reports a non-empty Evals field.
	EvalsSet bool
}

// ValidateUpdateAlloc applies the SYNC-4 checks in order and returns the
// first failure with its exact message, or nil:
//
//  1. at least one alloc: MsgNoAllocs;
//  2. a node ID: MsgMissingNodeID;
//  3. the node exists: MsgNodeNotFound;
//  4. the node may update allocs (NodeMayUpdateAllocs):
//     MsgNodeStatusBlocked;
//  5. no evals: MsgEvalsSet.
func ValidateUpdateAlloc(r UpdateAllocRequest) error {
	switch {
	case r.Allocs <= 0:
		return errors.New(MsgNoAllocs)
	case r.NodeID == "":
		return errors.New(MsgMissingNodeID)
	case !r.NodeFound:
		return fmt.Errorf(MsgNodeNotFound, r.NodeID)
	case !NodeMayUpdateAllocs(r.NodeStatus):
		return fmt.Errorf(MsgNodeStatusBlocked, r.NodeID, r.NodeStatus)
	case r.EvalsSet:
		return errors.New(MsgEvalsSet)
	}
	return nil
}
