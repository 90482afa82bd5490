// Package alloccmd is `conform alloc pause`, SPEC API-8: read or set the
// pause state (PAUSE-1) of one task of an allocation, through an agent's
// HTTP API (API-2, API-3, API-5) and the official Go client.
//
// The command runs these steps; the first failure is printed to stderr
// and exits 1 (the messages are SPEC's, constants in pause.go):
//
//  1. flags (an unknown flag is a usage error, exit 2), then 1 or 2
//     arguments: <allocation> [<task>];
//  2. -state is pause, run or scheduled;
//  3. the alloc ID has at least two characters; when its hex length (its
//     length without hyphens) is odd, the last character is dropped, so
//     the prefix is whole bytes;
//  4. GET /v1/allocations?prefix=<p> must match exactly one alloc (several
//     print a table of them), then GET /v1/allocation/<id>;
//  5. the task, -task over the positional one, must be a task of the
//     alloc's group; without a task, a group of one task names it;
//  6. -status: GET /v1/client/allocation/<id>/pause?task=<task> and print
//     `Pause state: "<state>"`; otherwise PUT the requested state (pause
//     → force_pause, run → force_run, scheduled → back to the schedule)
//     and print nothing.
package alloccmd
