// Package restart is the restart tracker's decision function of SPEC AR-7:
// given what ended a task run (an exit, a start error, a triggered restart,
// a pause stop, a kill) it decides whether the task restarts, after which
// delay and with which reason.
//
// A Tracker is a plain value with no clock and no randomness of its own:
// the instant of every decision is a parameter, and so is the uniform draw
// behind the restart jitter, so the runner injects its seeded source.
//
// One decision, in AR-7's precedence:
//
//  1. killed                          -> Killed
//  2. triggered restart / pause stop  -> Restarting, delay 0, empty reason,
//     no attempt used, interval untouched (PAUSE-6)
//  3. policy Attempts == 0            -> Terminated (successful exit without
//     restart-on-success) else Not Restarting
//  4. now > windowStart + Interval    -> count = 0, windowStart = now;
//     then count++ (an attempt is consumed from here on)
//  5. unrecoverable start error       -> Not Restarting
//  6. successful exit, no restart-on-success -> Terminated
//  7. count > Attempts                -> mode fail: Not Restarting;
//     mode delay: Restarting at windowStart + Interval
//  8. otherwise                       -> Restarting after
//     Delay + uniform[0, Delay) * 0.25
//
// The per-run inputs (exit, start error, triggered, pause-induced) are
// cleared by every decision; killed stays set.
package restart
