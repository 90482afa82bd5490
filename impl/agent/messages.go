package agent

// The texts SPEC §5 fixes exactly.
const (
	// MsgInvalidMethod is API-1's 405 body.
	MsgInvalidMethod = "Invalid method"
	// FmtDecodeBody is the 400 body of a malformed request body (API-2,
	// API-6; also used by API-4).
	FmtDecodeBody = "Failed to decode body: %v"
	// MsgInvalidScheduleState is API-2's 400 for an unknown ScheduleState.
	MsgInvalidScheduleState = "Not a valid task schedule state"
	// MsgJobMissing and MsgJobNoID are API-4's 400s.
	MsgJobMissing = "Job must be specified"
	MsgJobNoID    = "Job must have a valid ID"
	// MsgAllocNotFound is API-5's 404 for an unknown alloc.
	MsgAllocNotFound = "alloc not found"
)

// API-7: an RPC error containing one of these is a 404, any other a 500.
var notFoundMarkers = []string{"Unknown allocation", "Unknown node", "No path to node"}

// Response headers of API-1.
const (
	headerIndex       = "X-Nomad-Index"
	headerLastContact = "X-Nomad-LastContact"
	headerKnownLeader = "X-Nomad-KnownLeader"
)
