// Package drivers defines the task driver contract the task runner uses:
// start, wait, stop with signal and timeout, destroy, signal, and recover a
// task from a persisted handle after a client restart (SPEC STATE-4).
//
// Contract, as the task runner (SPEC AR-6, AR-7, PAUSE-5, PAUSE-11,
// STATE-4) relies on it:
//
//  1. StartTask(cfg) starts the task identified by cfg.ID
//     ("<allocID>/<task>") and returns the TaskHandle the runner persists
//     (STATE-1 local_state.TaskHandle). A failed start returns an error;
//     IsRecoverable(err) tells the restart tracker whether it may retry
//     (AR-7 rule 5: an unrecoverable start error is `Not Restarting`).
//  2. WaitTask(ctx, id) returns a channel that receives exactly one
//     *ExitResult when the task exits (at once if it already has) and is
//     then closed. If ctx ends first the channel is closed without a
//     value. ExitResult.Successful is AR-7's "successful exit".
//  3. StopTask(id, timeout, signal) delivers signal (empty = SIGINT, the
//     DATA-4 default KillSignal), force-kills with SIGKILL once timeout has
//     passed on the driver's clock, and returns once the task has exited
//     (at once if it already had). Used by kills (AR-6) and pause stops
//     (PAUSE-5).
//  4. SignalTask(id, signal) delivers a signal (PAUSE-11); whatever
//     follows is the ordinary exit path seen through WaitTask. A task
//     that has exited: ErrTaskExited.
//  5. DestroyTask(id, force) forgets an exited task; a running one is
//     refused with ErrTaskRunning unless force, which kills it first.
//  6. RecoverTask(handle) re-attaches to a task after a client restart
//     (STATE-4); on success the runner reuses the handle and emits no
//     `Started`. An error means there is nothing to recover.
//
// Every call on an unknown task ID wraps ErrTaskNotFound. A
// DriverManager hands drivers out by name (AR-2); Registry is the
// map-based one. Signal names and numbers follow Linux (signals.go).
//
// What the drivers here (mock, rawexec) share beyond the contract: the
// trace vocabulary their observers see (Event, Op, event.go), the JSON
// handle envelope (EncodeHandle, DecodeHandle) and, in
// internal/tasktable, their task registry, exit fan-out to WaitTask
// callers and event stamping.
package drivers
