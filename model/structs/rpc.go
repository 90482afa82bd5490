package structs

// RPC method names (SYNC-3, SYNC-4, API-7). Server methods are called by
// clients and the agent; client methods by the server over the node's
// connection.
const (
	RPCNodeUpdateAlloc     = "Node.UpdateAlloc"
	RPCNodeGetClientAllocs = "Node.GetClientAllocs"
	RPCAllocGetAllocs      = "Alloc.GetAllocs"

	RPCServerSetPauseState = "ClientAllocations.SetPauseState"
	RPCServerGetPauseState = "ClientAllocations.GetPauseState"
	RPCServerSignal        = "ClientAllocations.Signal"
	RPCServerRestart       = "ClientAllocations.Restart"

	RPCClientSetPauseState = "Allocations.SetPauseState"
	RPCClientGetPauseState = "Allocations.GetPauseState"
	RPCClientSignal        = "Allocations.Signal"
	RPCClientRestart       = "Allocations.Restart"
)

// WriteRequest carries the region and token of a write (SYNC-3).
type WriteRequest struct {
	Region    string `json:"Region"`
	AuthToken string `json:"AuthToken"`
}

// QueryOptions carries a blocking query's region and minimum index.
type QueryOptions struct {
	Region        string `json:"Region"`
	MinQueryIndex uint64 `json:"MinQueryIndex"`
}

// AllocUpdateRequest is Node.UpdateAlloc's request (SYNC-3). Evals must be
// empty when a client sends it (SYNC-4).
type AllocUpdateRequest struct {
	Alloc []*Allocation `json:"Alloc"`
	Evals []*Evaluation `json:"Evals"`
	WriteRequest
}

// Evaluation is the minimum of a server evaluation the simulated server
// creates for terminal updates (SYNC-4).
type Evaluation struct {
	ID          string `json:"ID"`
	Namespace   string `json:"Namespace"`
	JobID       string `json:"JobID"`
	TriggeredBy string `json:"TriggeredBy"`
}

// GenericResponse is a write's reply: the log index it committed at.
type GenericResponse struct {
	Index uint64 `json:"Index"`
}

// The alloc pull (issue 25), as Nomad's client makes it:
//
//  1. Node.GetClientAllocs(NodeClientAllocsRequest) is a blocking query
//     that answers with an index map (NodeClientAllocsIndexResponse):
//     every alloc placed on the node, by ID, with its AllocModifyIndex,
//     once the node's alloc index exceeds MinQueryIndex (or after the
//     server's maximum query time);
//  2. the client fetches only what it needs, the allocs it has no runner
//     for and those whose AllocModifyIndex moved, with
//     Alloc.GetAllocs(AllocsGetRequest), whose AllocsGetResponse holds
//     the allocs, jobs and task states included;
//  3. an alloc that left the map is no longer placed on the node.

// NodeClientAllocsRequest asks the server for the allocs placed on a node,
// blocking until the node's alloc index exceeds MinQueryIndex.
type NodeClientAllocsRequest struct {
	NodeID string `json:"NodeID"`
	QueryOptions
}

// NodeClientAllocsIndexResponse is Node.GetClientAllocs' reply (Nomad's
// NodeClientAllocsResponse): each alloc placed on the node, by ID, with
// its AllocModifyIndex, at Index.
type NodeClientAllocsIndexResponse struct {
	Allocs map[string]uint64 `json:"Allocs"`
	Index  uint64            `json:"Index"`
}

// MsgGetClientAllocsReplyChanged is the error a Node.GetClientAllocs
// call gets when its reply is the old NodeClientAllocsResponse.
const MsgGetClientAllocsReplyChanged = "Node.GetClientAllocs now replies with an index map (alloc ID → AllocModifyIndex) " +
	"in a *structs.NodeClientAllocsIndexResponse, not every alloc in a *structs.NodeClientAllocsResponse; " +
	"fetch the allocs that are new or whose AllocModifyIndex moved with Alloc.GetAllocs (structs.AllocsGetRequest)"

// NodeClientAllocsResponse was Node.GetClientAllocs' reply before issue
// 25: every alloc of the node, jobs and task events included, on every
// wake of the blocking query.
//
// Deprecated: Node.GetClientAllocs replies with a
// NodeClientAllocsIndexResponse, and Alloc.GetAllocs fetches the allocs
// that changed. The server rejects this type with
// MsgGetClientAllocsReplyChanged; it is kept so that a runner written for
// the old reply compiles and is told what changed.
type NodeClientAllocsResponse struct {
	Allocs []*Allocation `json:"Allocs"`
	Index  uint64        `json:"Index"`
}

// AllocsGetRequest is Alloc.GetAllocs' request: the allocs to fetch.
// MinQueryIndex asks for a server whose state has reached it (Nomad's
// client sends the highest AllocModifyIndex it fetches, minus one).
type AllocsGetRequest struct {
	AllocIDs []string `json:"AllocIDs"`
	QueryOptions
}

// AllocsGetResponse is Alloc.GetAllocs' reply: the requested allocs the
// server has, in request order, at Index.
type AllocsGetResponse struct {
	Allocs []*Allocation `json:"Allocs"`
	Index  uint64        `json:"Index"`
}

// AllocPauseRequest sets a task's pause state (API-7).
type AllocPauseRequest struct {
	AllocID       string            `json:"AllocID"`
	Task          string            `json:"Task"`
	ScheduleState TaskScheduleState `json:"ScheduleState"`
	WriteRequest
}

// AllocGetPauseStateRequest reads a task's pause state (API-7).
type AllocGetPauseStateRequest struct {
	AllocID string `json:"AllocID"`
	Task    string `json:"Task"`
	QueryOptions
}

// AllocGetPauseStateResponse is the stored pause state (API-3).
type AllocGetPauseStateResponse struct {
	ScheduleState TaskScheduleState `json:"ScheduleState"`
}

// AllocSignalRequest signals one task, or every task when Task is empty
// (API-6).
type AllocSignalRequest struct {
	AllocID string `json:"AllocID"`
	Task    string `json:"Task"`
	Signal  string `json:"Signal"`
	WriteRequest
}

// AllocRestartRequest restarts tasks of an alloc in place (AR-1's
// RestartTask, RestartRunning, RestartAll): TaskName one task, AllTasks
// every task that ran, neither every running task. Routed like a signal
// (API-7).
type AllocRestartRequest struct {
	AllocID  string `json:"AllocID"`
	TaskName string `json:"TaskName"`
	AllTasks bool   `json:"AllTasks"`
	WriteRequest
}
