// Package vclock is the virtual clock handed to runners under simulation: a
// github.com/benbjohnson/clock Mock behind a thin wrapper that still
// satisfies clock.Clock but avoids the Mock's hazards (DESIGN.md,
// Determinism):
//
//  1. Timer and After are built from AfterFunc, so arming a timer never
//     fires an already-due timer from the caller's goroutine; every timer
//     fires from the simulator's Add/Set loop, in the Mock's order.
//  2. A timer's channel has room for one value and is sent to without
//     blocking, so an unread fired timer never blocks the clock.
//  3. Ticker and Tick refuse non-positive periods (the Mock would spin).
//  4. WithDeadline and WithTimeout are a timer plus context.WithCancel,
//     not the Mock's racy contexts.
//
// The simulator advances the Mock with Advance, which calls
// testing/synctest.Wait first when asked to, so goroutines have armed their
// timers before time moves.
package vclock
