// Package tasktable is the task bookkeeping the task drivers share (mock
// and raw_exec): which tasks a driver holds, how each one ends as its
// StopTask and WaitTask callers see it, and the trace of driver events.
// What a task is and how it runs stays the driver's own.
//
//   - Table: the tasks by ID and whether the driver has closed. Lookup
//     fails with the driver's ErrClosed once closed, else with
//     drivers.ErrTaskNotFound for an unknown ID. Close abandons every
//     task and releases the callers blocked in Await (package drivers'
//     contract, steps 3 and 5, on a closed driver).
//   - Exit: one task's end. Pending until exactly one of:
//     1. Deliver(res): the task exited. Done closes, every waiting
//     WaitTask channel receives its own copy of res and closes, and a
//     later Wait gets a copy at once (drivers contract step 2).
//     2. Abandon: the driver let go of the task (Close). Every waiting
//     channel closes without a value; Done stays open.
//     A waiter whose context ends first is closed without a value. Wait
//     starts no goroutine: the context's end is hooked with
//     context.AfterFunc, and Deliver and Abandon unhook it.
//   - Tracer: stamps an event with the driver's clock (SPEC DET-1) and
//     hands it to the driver's observer, if any.
//
// Locking: Table and Exit have no lock of their own. The driver guards
// them with its lock, held for every call but Table.Closing and
// Table.Await (which block) and Exit.Done; Exit.Wait is handed that lock
// for its context hook.
package tasktable
