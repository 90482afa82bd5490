package trace

import (
	"encoding/json"
	"fmt"
	"time"
)

// Kind classifies a record; kinds are ordered (see rank) so that records
// of one instant sort the same way on every run.
type Kind string

// Record kinds, in their order within one instant.
const (
	KindWorld     Kind = "world"      // run start and end, client incarnations
	KindFault     Kind = "fault"      // a fault fired (timed or per call)
	KindAPI       Kind = "api"        // a scenario API call and its result
	KindJob       Kind = "job"        // job registration, update, stop
	KindServer    Kind = "server"     // server log entries (commits), evals
	KindRPC       Kind = "rpc"        // RPC send, delivery, reply, failure
	KindCSI       Kind = "csi"        // CSI plugin calls, invoke and return
	KindDriver    Kind = "driver"     // mock driver calls and task exits
	KindStateDB   Kind = "statedb"    // state DB writes
	KindAlloc     Kind = "alloc"      // a client alloc status change
	KindTask      Kind = "task"       // a task state change
	KindTaskEvent Kind = "task_event" // a new task event
	KindMetric    Kind = "metric"     // hook telemetry, read at the end
	KindViolation Kind = "violation"  // a harness-detected violation
	// Written only by scenarios with HookLatency set (older traces have
	// none):
	KindPort       Kind = "port"        // an alloc dir, task dir or CSI port call, invoke and return
	KindHookMetric Kind = "hook_metric" // one hook telemetry emission, as it is made
)

// Record vocabulary readers match on (the simulator writes these).
const (
	// MsgClientStart, MsgClientCrash and MsgClientStop are KindWorld
	// messages of a client incarnation's start, crash and graceful stop
	// (Data: {"incarnation": n}).
	MsgClientStart = "client_start"
	MsgClientCrash = "client_crash"
	MsgClientStop  = "client_stop"
	// The KindPort operations (Op): alloc dir, task dir and CSI port
	// calls.
	PortAllocDirBuild = "alloc_dir Build"
	PortTaskDirBuild  = "task_dir Build"
	PortCSIMount      = "csi MountVolume"
	PortCSIUnmount    = "csi UnmountVolume"
)

var kindRank = map[Kind]int{
	KindWorld: 0, KindFault: 1, KindAPI: 2, KindJob: 3, KindServer: 4,
	KindRPC: 5, KindCSI: 6, KindDriver: 7, KindStateDB: 8, KindAlloc: 9,
	KindTask: 10, KindTaskEvent: 11, KindMetric: 12, KindViolation: 13,
	KindPort: 14, KindHookMetric: 15,
}

// rank orders kinds; unknown kinds sort last, by name.
func (k Kind) rank() int {
	if r, ok := kindRank[k]; ok {
		return r
	}
	return len(kindRank)
}

// Record is one observable thing at one virtual instant.
type Record struct {
	// At is the virtual instant, printed in UTC.
	At   time.Time
	Kind Kind
	// Alloc and Task locate the record, when it is about one.
	Alloc string
	Task  string
	// Op is the operation or sub-stream (an RPC method, a driver call).
	Op string
	// Msg is a short outcome or description.
	Msg string
	// Data is the record's payload, already encoded.
	Data json.RawMessage
}

// line is the JSON shape of a Record.
type line struct {
	T     string          `json:"t"`
	Kind  Kind            `json:"kind"`
	Alloc string          `json:"alloc,omitempty"`
	Task  string          `json:"task,omitempty"`
	Op    string          `json:"op,omitempty"`
	Msg   string          `json:"msg,omitempty"`
	Data  json.RawMessage `json:"data,omitempty"`
}

// TimeFormat is how record times print: RFC 3339 in UTC, nanoseconds
// without trailing zeros.
const TimeFormat = time.RFC3339Nano

// MarshalJSON encodes the record as one trace line (without newline).
func (r Record) MarshalJSON() ([]byte, error) {
	return json.Marshal(line{
		T: r.At.UTC().Format(TimeFormat), Kind: r.Kind, Alloc: r.Alloc, Task: r.Task,
		Op: r.Op, Msg: r.Msg, Data: r.Data,
	})
}

// UnmarshalJSON decodes a trace line.
func (r *Record) UnmarshalJSON(b []byte) error {
	var l line
	if err := json.Unmarshal(b, &l); err != nil {
		return fmt.Errorf("decode trace record: %w", err)
	}
	at, err := time.Parse(TimeFormat, l.T)
	if err != nil {
		return fmt.Errorf("decode trace record time %q: %w", l.T, err)
	}
	*r = Record{At: at, Kind: l.Kind, Alloc: l.Alloc, Task: l.Task, Op: l.Op, Msg: l.Msg, Data: l.Data}
	return nil
}

// String is the record's trace line.
func (r Record) String() string {
	b, err := r.MarshalJSON()
	if err != nil {
		return fmt.Sprintf("<unencodable record: %v>", err)
	}
	return string(b)
}
