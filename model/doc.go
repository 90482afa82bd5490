// Package model is the root of allocsim's oracle: the rules of SPEC.md as
// pure functions and small state machines, with no goroutines, no clock
// reads and no I/O. Its sub-packages each hold one rule family:
//
//   - structs: the domain data of SPEC §1 (jobs, allocations, task states and
//     events) and the rules that belong to the data itself (DATA-3..DATA-8).
//   - schedule: task schedule validation and window evaluation (SCHED-1..10).
//   - pause: the pause-state machine of the pause gate (PAUSE-1..11).
//   - restart: the restart tracker's decision function (AR-7).
//   - status: ClientStatus and the kill rules (AR-8, AR-9).
//   - syncpolicy: update priority and the pending-updates buffer (SYNC-1..5).
//   - telemetry: the metric keys and labels a hook execution produces (TELEM).
//
// The reference runner calls these rules; the conformance properties check a
// runner's behaviour against them. Neither restates them.
package model
