// Package bubbletime keeps a testing/synctest bubble's own clock (the
// `time` package inside the bubble) in step with a simulated world's
// virtual clock, so that a runner written on the time package (time.Now,
// time.Sleep, time.NewTimer) sees the world's now and its sleeps last
// their virtual duration.
//
// Inside a bubble the time package is virtual already: it starts at
// 2000-01-01 00:00 UTC and moves only when every goroutine of the bubble
// is durably blocked, straight to the next timer of the bubble. The
// simulator (sim.World) uses it so:
//
//  1. Align(start) at the world's start moves the bubble's clock to the
//     scenario's start instant (a sleep, which costs nothing in a bubble),
//     or reports by how much the bubble is already past it (a second world
//     in the same bubble): the offset the world keeps;
//  2. before the world moves its clock to t, Until(t+offset) sleeps
//     the bubble to t; a goroutine of the runner that wakes earlier on a
//     timer of the time package and acts (pushes, makes an injected call)
//     nudges the Waiter, and Until returns at that earlier instant, so that the
//     world settles and observes there;
//  3. either way, once Until returns every goroutine the bubble woke at
//     that instant has run until it blocked (synctest.Wait), before the
//     world fires its own timers of the instant: the order of the two
//     kinds of timers due at one instant is fixed (the time package's
//     first).
//
// This package and internal/watchdog are the simulator's only users of
// the time package's clock functions; detlint (DET-1) is not run on them.
// Outside a bubble nothing here may be called: a sleep there is real.
package bubbletime
