package state

import (
	"github.com/allocsim/allocsim/impl/interfaces"
)

// Bucket and key names of STATE-1. They are exact: the bbolt file uses them
// as written, and fault hooks receive them in Write.Key.
const (
	BucketAllocations = "allocations"
	BucketMeta        = "meta"
	// TaskBucketPrefix prefixes a task's bucket name: task-<name>.
	TaskBucketPrefix = "task-"

	KeyAlloc             = "alloc"
	KeyAcknowledgedState = "acknowledged_state"
	KeyDeployStatus      = "deploy_status"
	KeyNetworkStatus     = "network_status"
	KeyAllocVolume       = "alloc_volume"
	KeyLocalState        = "local_state"
	KeyTaskState         = "task_state"
	KeyVersion           = "version"
)

// SchemaVersion is the layout version written to meta/version on first
// open. A file with a newer version is refused (ErrSchemaTooNew).
const SchemaVersion = 1

// Reopener is a StateDB that can be closed and opened again over the same
// storage, as a client restart does. The receiver is closed afterwards.
type Reopener interface {
	Reopen() (interfaces.StateDB, error)
}

// RawWriter stores raw bytes under a key, bypassing encoding and the fault
// hook: tests and the simulator use it to plant corrupt entries. An empty
// taskName writes an alloc-level key.
type RawWriter interface {
	PutRaw(allocID, taskName, key string, value []byte) error
}

// Write operations reported to a FaultHook.
const (
	OpPut    = "put"
	OpDelete = "delete"
)

// Write describes one write about to happen, as seen by a FaultHook.
type Write struct {
	// Op is OpPut or OpDelete.
	Op string
	// AllocID is the alloc written.
	AllocID string
	// Task is the task name for per-task writes and DeleteTaskBucket,
	// else empty.
	Task string
	// Key is the STATE-1 key written (KeyAlloc, KeyTaskState, ...); empty
	// for bucket deletes.
	Key string
	// InBatch: the write is one of a Batch's (DB.Batch), whose BatchHook
	// ran when the batch began. It is not part of String.
	InBatch bool
}

// String renders the write as "<op> <allocID>[/task-<name>][/<key>]".
func (w Write) String() string { return w.Op + " " + entryPath(w.AllocID, w.Task, w.Key) }

// entryPath names an entry or bucket: "<allocID>[/task-<name>][/<key>]".
func entryPath(allocID, task, key string) string {
	s := allocID
	if task != "" {
		s += "/" + TaskBucketPrefix + task
	}
	if key != "" {
		s += "/" + key
	}
	return s
}

// FaultHook is the simulator's put-failure injector (STATE-1): consulted
// before every write; a non-nil error aborts the write, which then returns
// it wrapped. It must be safe for concurrent use.
type FaultHook func(w Write) error
