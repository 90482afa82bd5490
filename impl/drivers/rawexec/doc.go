// Package rawexec is the raw_exec task driver `conform agent -dev` uses:
// it runs a task's command as a local process, without isolation, in its
// own process group (SPEC SCOPE-1 "Driver"; the contract is package
// drivers'). It runs on Linux only; elsewhere StartTask and RecoverTask
// fail with ErrUnsupported.
//
// A task is configured from its Config (unknown keys are ignored, DATA-1;
// a bad value fails StartTask, unrecoverable, with an error naming the
// key):
//
//	command  required string: a path, or a name looked up in the task's
//	         PATH (absolute entries only)
//	args     list of strings, the arguments after the program name
//
// The process:
//
//  1. Environment: Config.Env (what the agent passes on, none by
//     default), then PATH from Config.Path (the driver never reads its
//     own environment, DET-1), then TaskConfig.Env merged over both.
//  2. Working dir: TaskConfig.TaskDir if set and existing, else the
//     driver's own.
//  3. Output: stdout and stderr are appended to <task>.stdout.0 and
//     <task>.stderr.0 in the alloc's log dir (ADIR-2 alloc/logs, beside
//     the task dir) if it exists, else discarded. Stdin is /dev/null.
//  4. Process group: the process leads a new group (pgid = pid). Every
//     signal the driver sends (StopTask, SignalTask, DestroyTask) goes to
//     the whole group, so children started by the task get it too.
//  5. Signals: the process starts with every signal at its default
//     disposition, even when the driver's own process ignores some (under
//     nohup, SIGHUP): before each start the driver makes the Go runtime
//     catch, and drop, the signals its process ignores, so that the fork
//     resets them (dispositions_linux.go says why, and what it leaves out).
//  6. Exit: when the main process exits, whatever it left in its group is
//     SIGKILLed, then the exit is reported: ExitResult{ExitCode} for an
//     exit, ExitResult{Signal} (code 0) for a death by signal.
//
// StopTask(timeout, S) sends S (empty: SIGINT) to the group, SIGKILLs the
// group once timeout has passed on the injected clock unless the task has
// exited, and returns once it has. Times come only from Config.Clock
// (Now, AfterFunc; DET-1).
//
// The handle's DriverState is JSON {pid, pgid, started_at (Unix ns on the
// clock), command (the program path), proc_start (the start time the
// kernel records, to tell a reused pid)}. RecoverTask on a new Driver
// re-attaches to that process if it is still running; being no longer its
// parent, the driver polls it every Config.PollInterval on the clock, and
// reports its death as ExitResult{Err: ErrExitUnknown}: the exit code and
// signal of a recovered task are unknown.
//
// Goroutines: one per started task, waiting for its process; it ends when
// the process exits, even after Close (the driver is the process's parent
// and must reap it). Force kills and polls are Clock.AfterFunc timers,
// WaitTask's context hooks context.AfterFunc; Close cancels both.
package rawexec
