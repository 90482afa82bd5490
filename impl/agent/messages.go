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

// Texts of the endpoints of issue 14 (Cluster). SPEC fixes none of them:
// the not-found ones are Nomad's, the others this package's own.
const (
	// MsgJobNotFound, MsgEvalNotFound and MsgNodeNotFound are the 404s of
	// an unknown job, evaluation and node.
	MsgJobNotFound  = "job not found"
	MsgEvalNotFound = "eval not found"
	MsgNodeNotFound = "node not found"
	// MsgPlanNotSupported is the 501 of PUT /v1/job/<id>/plan.
	MsgPlanNotSupported = "job plan is not supported by this agent: the simulated server places allocs when a job is registered"
	// MsgRestartTaskAndAll is the 400 of a restart naming a task and all
	// tasks at once.
	MsgRestartTaskAndAll = "a restart names either a task or all tasks, not both"
)

// What the agent reports about itself (/v1/agent/self, members, status):
// the Nomad version whose API it serves, and the addresses of a one-server
// cluster whose RPC and gossip ports are Nomad's defaults (nothing listens
// there: the simulated server is in process).
const (
	NomadVersion    = "1.10.5"
	VersionMetadata = "allocsim"
	DefaultRegion   = "global"
	serverAddr      = "127.0.0.1"
	serverRPCPort   = "4647"
	serverSerfPort  = 4648
	serverRPCAddr   = serverAddr + ":" + serverRPCPort
	defaultHTTPAddr = "127.0.0.1:4646"
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
