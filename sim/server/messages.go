package server

// Exact messages. The API-7 routing errors are SPEC's; the others are the
// simulator's own.
const (
	MsgMissingAllocID = "missing AllocID"
	FmtUnknownAlloc   = "Unknown allocation %q"
	MsgNoPathToNode   = "No path to node"

	MsgJobNoID       = "Job must have a valid ID"
	fmtJobNotFound   = "job %q not found"
	fmtNoNode        = "no node to place job %q on"
	fmtUnknownMethod = "rpc: can't find method %s"
	fmtBadArgs       = "rpc %s: args of type %T, reply of type %T"
	fmtNodeExists    = "node %s already registered"
	MsgCallAbandoned = "rpc call abandoned by the caller"
)
