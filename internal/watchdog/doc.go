// Package watchdog is the simulator's one reader of the real clock: it
// notices, from outside a testing/synctest bubble, that a run inside the
// bubble has stopped making progress, and it reads the goroutines of that
// bubble for the diagnosis (sim.Test is its user; the words of the
// diagnosis are the simulator's).
//
// A goroutine inside a bubble sees the bubble's fake time, which stands
// still while the bubble is wedged, so the watchdog must run on a
// goroutine started outside it. It never touches the bubble's channels or
// timers (that panics); it reads only what the run publishes through
// atomics or mutexes (a Probe) and the runtime's goroutine dump.
//
// The protocol:
//
//  1. Start(stall, probe, onStall) polls probe on the real clock, a few
//     times per stall period;
//  2. while probe reports the run active, every change of its progress
//     counter restarts the stall period; a poll that finds the run
//     inactive restarts it too;
//  3. once the counter has not moved for a whole stall period, onStall
//     runs once, on the watchdog's goroutine, and the watchdog stops (a
//     wedged bubble cannot be unwound: onStall reports and ends the
//     process);
//  4. the stop function Start returned ends the watchdog early.
//
// Stall resolves the stall period: the -sim.stall flag, else the
// ALLOCSIM_STALL environment variable (both Go durations, 0 turns the
// watchdog off), else the caller's value, else DefaultStall.
//
// Bubble identifies the bubble of the calling goroutine, and Goroutines
// parses a dump of all goroutines (runtime.Stack) into the goroutines of
// one bubble, with the runtime's "(durable)" marks: Go prints a goroutine
// of a bubble as
//
//	goroutine 12 [sync.Mutex.Lock, synctest bubble 1]:
//	goroutine 11 [chan receive (durable), synctest bubble 1]:
//
// The detlint rule (DET-1) is not run on this package.
package watchdog
