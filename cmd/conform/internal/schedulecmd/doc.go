// Package schedulecmd is `conform schedule`: it answers "when will my task
// run?" for one task schedule, for people (a text report) and for scripts
// (one JSON object).
//
// The command is a thin adapter over model/schedule, the single home of the
// window rules (SPEC §3):
//
//  1. parse and check flags (missing --start/--end, --profile, --at as RFC
//     3339, --next within 0..MaxNext): a bad flag is a usage error;
//  2. schedule.Validate with the profile (SCHED-1, SCHED-2), then
//     schedule.Evaluate at --at (SCHED-8) and, with --next, NextWindows; their
//     errors are printed verbatim and are usage errors too (exit code 2);
//  3. render the Result in the zone's local time and in UTC, or as JSON.
//
// The clock and the machine's local zone are injected through [Config]; the
// zero Config is the production adapter (time.Now, time.Local).
package schedulecmd
