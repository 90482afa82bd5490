// Package mock is a task driver whose tasks are plans on the injected
// clock, not processes: the reference runner's tests and the simulator
// run it to exercise every driver outcome the task runner must handle
// (SPEC AR-6, AR-7, PAUSE-5, PAUSE-11, STATE-4) with exact virtual
// timing.
//
// A task is configured from its Config with Nomad's mock_driver keys
// (values decode leniently: numbers as int or float64, durations as Go
// duration strings or integer nanoseconds; a bad value fails StartTask
// with an error naming the key; unknown keys are ignored, DATA-1):
//
//	run_for                 duration; the task exits by itself that long
//	                        after start. 0 or absent: runs until stopped.
//	exit_code, exit_signal  the result of that exit (exit_signal: number
//	exit_err_msg            or name); exit_err_msg becomes ExitResult.Err.
//	start_error             StartTask fails with exactly this message,
//	start_error_recoverable marked recoverable or not (drivers.IsRecoverable).
//	start_block_for         StartTask blocks that long on the clock first.
//	kill_after              how long after a terminating signal the task
//	                        takes to exit.
//	signal_error            SignalTask returns exactly this error.
//	exit_on_signals         signals the task traps: it exits cleanly
//	                        (code 0, signal 0) kill_after after one.
//	ignore_signals          signals the task ignores (SIG_IGN).
//
// (exit_on_signals and ignore_signals are allocsim's, not Nomad's; both
// take a list of names or one comma-separated string, and may not list
// SIGKILL or share a signal.)
//
// Signal disposition, for a running task receiving signal S (number n):
//
//  1. S = SIGKILL: the task dies at once, signal 9, code 0.
//  2. S in exit_on_signals: exits kill_after later, code 0, signal 0.
//  3. S in ignore_signals, or S does not terminate by default (SIGCHLD,
//     SIGCONT, SIGURG, SIGWINCH, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU):
//     nothing happens.
//  4. Otherwise S kills it kill_after later: signal n, code 0.
//
// StopTask(timeout, S) delivers S the same way and, unless the task has
// exited by then, force-kills it (signal 9, code 0) at timeout. Where the
// clean exit and the force kill fall on the same instant (kill_after =
// timeout) the clean exit wins. It returns once the task has exited.
// SignalTask never force-kills.
//
// A task has at most one planned exit and one timer: a new plan (a
// signal's exit, a force kill) replaces it only if strictly earlier, so
// same-instant outcomes never depend on timer order. Plans due now (delay
// ≤ 0) run inline, never through a timer (DESIGN "Determinism"). Timers
// are built with Clock.AfterFunc only. The driver starts no goroutine of
// its own: timer callbacks and WaitTask's context hooks are the clock's
// and the context package's, and DestroyTask/Close stop them.
//
// The handle's DriverState is JSON: the task config, the decoded config,
// StartedAt (Unix ns on the clock), the state and the natural exit
// (after, result). RecoverTask on a new Driver with the same clock
// rebuilds the task so it exits at StartedAt + after, or at once if that
// has passed. A stop or signal in progress is not in the handle and is
// forgotten on recovery.
//
// Faults (the simulator's hook) are consulted at StartTask (delay, error,
// scheduled exit), RecoverTask (error) and StopTask (error, hang until the
// force kill). OnEvent observes every call and every exit.
package mock
