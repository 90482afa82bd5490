package agent

// Exact texts. The API-* ones are SPEC's; the others are this package's
// own where SPEC is silent.
const (
	// MsgInvalidMethod is API-1's 405 body.
	MsgInvalidMethod = "Invalid method"
	// MsgResourceNotFound is the 404 body of an unknown path or a path of
	// the wrong shape (API-2).
	MsgResourceNotFound = "Resource not found"
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
	// FmtBadBool is the 400 of a query parameter that is not a bool.
	FmtBadBool = "Failed to parse value of %q (%v) as a bool: %v"
	// FmtBadMetricsFormat is the 400 of /v1/metrics without
	// format=prometheus.
	FmtBadMetricsFormat = "Unsupported metrics format %q: only \"prometheus\" is served"
)

// API-7: an RPC error containing one of these is a 404, any other a 500.
var notFoundMarkers = []string{"Unknown allocation", "Unknown node", "No path to node"}

// API-2: the request ScheduleState values and the pause states they ask for.
const (
	requestPause     = "pause"
	requestRun       = "run"
	requestScheduled = "scheduled"
)

// Response headers of API-1.
const (
	headerIndex       = "X-Nomad-Index"
	headerLastContact = "X-Nomad-LastContact"
	headerKnownLeader = "X-Nomad-KnownLeader"
)

// Configuration errors of New.
const (
	msgNilServer      = "agent config: server is nil"
	fmtUnknownProfile = "agent config: unknown schedule profile %q"
)
