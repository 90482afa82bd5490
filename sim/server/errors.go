package server

// Error texts SPEC fixes: API-7's routing errors and API-4's missing job ID.
const (
	// MsgMissingAllocID is API-7's error for an empty AllocID.
	MsgMissingAllocID = "missing AllocID"
	// FmtUnknownAlloc is API-7's error for an unknown alloc:
	// `Unknown allocation "<id>"`.
	FmtUnknownAlloc = "Unknown allocation %q"
	// MsgNoPathToNode is API-7's error for an alloc whose node is not
	// connected.
	MsgNoPathToNode = "No path to node"
	// MsgJobNoID is API-4's rejection of a job without an ID.
	MsgJobNoID = "Job must have a valid ID"
)
