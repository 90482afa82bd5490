// Package state is the client's state DB (SPEC §10, STATE-1): what an alloc
// runner and its task runners persist so that a restarted client can restore
// them (STATE-3, STATE-4). One StateDB interface, one implementation over
// two byte stores: go.etcd.io/bbolt on disk (OpenBolt, the production
// store) and memory (NewMemDB, for simulation), with identical semantics.
//
// Layout (STATE-1), the same in both stores:
//
//	meta/
//	    version                      schema version (bbolt only), SchemaVersion
//	allocations/
//	    <allocID>/
//	        alloc                    *structs.Allocation
//	        acknowledged_state       *structs.AllocState
//	        deploy_status            *structs.AllocDeploymentStatus
//	        network_status           *structs.AllocNetworkStatus
//	        alloc_volume             *AllocVolumes (CSI stubs)
//	        task-<name>/
//	            local_state          *LocalState
//	            task_state           *structs.TaskState
//
// Contract:
//
//  1. Values are stored JSON-encoded (encoding/json). JSON is debuggable
//     with any bbolt viewer, is byte-stable (maps are encoded with sorted
//     keys, so the same value always writes the same bytes, DET-4) and is
//     schema-tolerant: decoding ignores unknown fields and leaves missing
//     ones zero, so a field added or dropped in a later version does not
//     make an older entry unreadable.
//     PutAllocation does not re-encode an alloc equal to the last one it
//     encoded for that ID (a 60 s snapshot of an unchanged alloc, STATE-2;
//     compared with structs.Allocation.SameJSON): it stores the same bytes
//     again; the write itself, fault hook and all, happens as for any put.
//     PutUnchangedAllocation does the same without even comparing, for a
//     caller that passes again the very alloc it put last, unchanged.
//     PutFrozenTaskState keeps a task state its caller will never change
//     with its encoding, so that later writes holding it, its events or
//     events that compare same to them copy those bytes, or, for an alloc
//     and an acknowledged state in the memory store, reference them (a
//     rope, value.go); every write still stores exactly encoding/json's
//     bytes, and every read returns them whole.
//  2. Every Put stores an encoding and every Get decodes a fresh value, so
//     values are deep-copied both ways: mutating what was put or what was
//     got never changes the stored state. The memory store keeps the
//     encoded bytes too, so copies and decode errors behave exactly as on
//     disk.
//  3. A missing alloc, task or key reads as nil with no error (so does an
//     empty stored value, which only PutRaw can write). A nil value is
//     stored as JSON null and reads back as nil.
//  4. Writing a per-task key or an alloc-level key creates the alloc's
//     bucket if needed. Deleting a missing bucket is not an error.
//  5. GetAllAllocations lists allocs sorted by ID (DET-2). An alloc whose
//     `alloc` entry is missing, undecodable, null or names another ID is
//     skipped and reported in the per-alloc error map (wrapping ErrCorrupt
//     or ErrNoAllocEntry); it never fails the listing or the open (STATE-3
//     step 1). Other undecodable values fail their Get with ErrCorrupt.
//  6. Fault injection (STATE-1): the FaultHook of BoltConfig or MemConfig,
//     when set, is consulted before every write (each Put and each Delete)
//     with a Write naming the operation, alloc, task and key, after
//     argument checks and encoding and before anything is changed. If it
//     returns an error, nothing is written and the method returns that
//     error wrapped (errors.Is finds it), so prior values stay intact. It
//     is not consulted for reads, for Close, for the schema version written
//     at open, or for PutRaw.
//  7. After Close (or Reopen) every method returns ErrClosed; Close is
//     idempotent. Reopen closes the handle (if still open) and opens a new
//     one over the same storage, as a client restart does; every write
//     that returned nil before is visible through the new handle.
//  8. A bbolt write returns only after its transaction committed and was
//     fsynced (unless BoltConfig.NoSync, for tests), so an abrupt process
//     death keeps every write that returned nil and no partial one. The
//     bbolt file is <dir>/state.db, mode 0600; opening it waits at most
//     BoltConfig.OpenTimeout for the file lock; a file whose schema version
//     is newer than SchemaVersion is refused with ErrSchemaTooNew, one with
//     an unreadable or non-positive version with ErrBadSchema.
//
// The shared conformance suite for any StateDB is in package statetest.
package state
