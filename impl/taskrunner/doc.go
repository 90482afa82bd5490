// Package taskrunner is the reference task runner of SPEC §7 AR-5..AR-7: it
// runs one task of an allocation through its hooks, its driver and its
// restart policy, and owns the task's pause gate (SPEC §4, PAUSE-1..11).
//
// The run loop (AR-6), one goroutine per task, in this order:
//
//  1. construction appends `Received` (state pending);
//  2. wait for the start condition (AR-9), a kill or a shutdown; a task
//     whose driver task could not be recovered waits for the servers too
//     (STATE-4);
//  3. prestart hooks in order (validate, task_dir, volumes): hooks marked
//     PrestartDone are skipped and their Env re-applied; each run is timed
//     once on the injected clock (TELEM-3); a failure appends `Task hook
//     failed` and is a recoverable start error; local_state is persisted
//     after a hook's state changed (STATE-2);
//  4. the pause gate (PAUSE-3): blocks while the task is paused;
//  5. re-check kill and shutdown, then start the driver (`Started`,
//     running; a recovered handle: running, no event);
//  6. poststart hooks, then wait for the exit (`Terminated`), then exited
//     hooks;
//  7. the restart decision of model/restart (AR-7): `Restarting` (pending,
//     delay on the clock, back to 3) or leave the loop (`Not Restarting`
//     fails the task);
//  8. dead; non-poststop tasks wait for an alloc restart or a kill; then
//     RunComplete is persisted and the stop hooks run once.
//
// The kill path (Kill): the caller's `Killing`, prekill hooks, the tracker
// marked killed, StopTask with the kill signal and the capped kill timeout
// retried with backoff min(4^i × 5s, 2m) up to 5 times, then `Terminated`
// and `Killed`. A kill while the task waits in the gate, in a restart delay
// or before its start ends it dead with no `Terminated`/`Killed` (PAUSE-8).
//
// The pause gate drives model/pause's machine: tracking timers, overrides,
// pause stops (prekill hooks, kill signal and timeout, no `Killing`; the
// exit restarts with delay 0 and uses no attempt, PAUSE-5/6), schedule
// changes (PAUSE-7) and restore (PAUSE-10).
//
// Every task state change is persisted (task_state, STATE-2) and reported
// through Config.StateUpdated with no task runner lock held; TaskState
// shows a change once its write returned. Time comes only from
// Config.Clock and randomness only from Config.Rand (DET-1).
//
// Locks held across a state DB write (the pause gate's, and one
// persistence lock per key, task_state and local_state) are chanLocks,
// never sync.Mutex: a simulator may hold the write, and a goroutine
// waiting for a channel is durably blocked for testing/synctest (DET-3).
// Lock order: pause gate, then the runner lock or the task_state lock;
// either persistence lock, then the task state lock.
package taskrunner
