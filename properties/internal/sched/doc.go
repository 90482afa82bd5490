// Package sched holds the suite's task schedule properties (SPEC §3,
// SCHED-1..SCHED-10, with PAUSE-7's in-place schedule change): where a
// scheduled task may run, zones and DST, no-future-start schedules, the
// CE profile's rejection.
package sched
