// Package status holds the alloc-level rules that read a group's task
// states: the alloc's ClientStatus and ClientDescription (SPEC AR-8), the
// kill rules that end an alloc when a task dies (AR-9), the kill order, and
// the lifecycle start conditions (AR-9 "Start order"). All are pure
// functions of the group's tasks and their current task states.
//
// Kill rules (poststop tasks ignored throughout; a task is live unless its
// state is dead, so paused tasks, which are pending, are live and trigger
// nothing, PAUSE-8):
//
//  1. a dead, non-failed leader        -> Leader Task Dead to every live task
//  2. else a dead, failed task         -> Sibling Task Failed, naming the
//     first failed task by name, to every live task
//  3. else only sidecars live (and the group has non-sidecar tasks, all
//     dead)                            -> Main Tasks Dead to the sidecars
//
// Kill order: leader, then the other non-sidecar tasks, then sidecars;
// poststop tasks are untouched; names ascending within a phase (DET-2).
//
// Start order, by lifecycle stage:
//
//	prestart  --(prestart non-sidecars dead and not failed,
//	             prestart sidecars started)-->  main
//	main      --(every main task started)-->    poststart
//	main      --(every main task dead)-->       poststop
//
// "Started" is a non-zero StartedAt, so the conditions never close again
// once open.
package status
