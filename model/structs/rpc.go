package structs

// RPC method names (SYNC-3, SYNC-4, API-7). Server methods are called by
// clients and the agent; client methods by the server over the node's
// connection.
const (
	RPCNodeUpdateAlloc     = "Node.UpdateAlloc"
	RPCNodeGetClientAllocs = "Node.GetClientAllocs"

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

// NodeClientAllocsRequest asks the server for every alloc placed on a node,
// blocking until the server's alloc index exceeds MinQueryIndex.
type NodeClientAllocsRequest struct {
	NodeID string `json:"NodeID"`
	QueryOptions
}

// NodeClientAllocsResponse is the full set of allocs of a node at Index.
type NodeClientAllocsResponse struct {
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
