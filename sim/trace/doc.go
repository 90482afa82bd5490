// Package trace records what a simulated run did, one JSON line per
// observable thing, each with its virtual time (DESIGN.md "Runs, traces,
// properties"; DET-4).
//
// A trace is byte-stable: a record holds no pointers, no map iteration
// order and no wall time; its Data is encoded when it is recorded
// (encoding/json sorts map keys), so later mutation of the value does not
// change it. Components record from any goroutine with Emit; the world
// calls Flush after each settled instant, which orders that instant's
// records by (At, Kind, Alloc, Task, Op) and, within one such stream, by
// arrival. Records of one stream come from one goroutine at a time (one
// task runner's driver calls, one client's RPCs of one method), so their
// arrival order is itself deterministic; records of different streams
// emitted concurrently at the same instant are put in stream order.
//
// Line format (fields omitted when empty):
//
//	{"t":"2024-03-10T06:00:00.2Z","kind":"rpc","op":"Node.UpdateAlloc","msg":"send","data":{...}}
package trace
