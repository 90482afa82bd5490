// Package timeline turns one simulated run's artifacts, its trace and its
// scenario, into a timeline over virtual time and renders it: an SVG for
// the HTML report and a compact text timeline for `conform replay`.
//
// A Timeline has:
//
//  1. a lane per task of each alloc (Lane): its state segments (pending,
//     running, dead, with the pause state the trace records), the windows
//     of its schedule as model/schedule computes them in the task's zone
//     (the spec lives there once; this package never reads cron itself),
//     the scenario API calls made on it (pause overrides among them) and
//     its task events;
//  2. the node's RPCs (Node.UpdateAlloc sends, deliveries, replies and
//     failures, and the others);
//  3. marks across every lane: faults, client crashes and restarts, and
//     violations (KindViolation records, or Mark from the caller);
//  4. notes for the text form: job registrations, alloc client status
//     changes, API calls on no alloc, the run's end.
//
// Build reads records and a scenario (Load reads both files); WriteSVG and
// WriteText render. Both renderings are pure functions of the timeline:
// items are sorted by (instant, trace order), numbers print with fixed
// precision, and nothing reads the wall clock.
package timeline
