package structs

// Error texts of the server's API that SPEC fixes (API-4, API-7): the
// simulated server raises them, the agent raises the same for the alloc
// dir endpoints and maps them to HTTP statuses.
const (
	// MsgMissingAllocID is API-7's error for an empty AllocID.
	MsgMissingAllocID = "missing AllocID"
	// FmtUnknownAllocation is API-7's error for an unknown alloc:
	// `Unknown allocation "<id>"`.
	FmtUnknownAllocation = "Unknown allocation %q"
	// MsgNoPathToNode is API-7's error for an alloc whose node is not
	// connected.
	MsgNoPathToNode = "No path to node"
	// MsgJobNoID is API-4's rejection of a job without an ID.
	MsgJobNoID = "Job must have a valid ID"
)
