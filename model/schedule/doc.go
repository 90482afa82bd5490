// Package schedule validates task schedules and evaluates their windows in
// local wall-clock time (SPEC §3, SCHED-1..SCHED-10). It is pure: no
// goroutines, no clock reads; the only I/O is time.LoadLocation reading
// the tz database (SCHED-4), cached per zone name.
//
// Validate is the registration check (SCHED-2). Compile loads a schedule's
// zone and parses its cron expressions once; the Compiled value answers
// Evaluate (SCHED-8) and NextWindows cheaply and may be shared between
// goroutines. The package functions Evaluate and NextWindows compile and
// evaluate in one call.
//
// # Window semantics
//
//  1. Start `minute hour day-of-month month day-of-week year` and End
//     `minute hour` are parsed with github.com/hashicorp/cronexpr (End as
//     End + " * * * *"), match at second 0, and match local wall-clock
//     date-times of the schedule's zone: Timezone, or the injected local
//     zone for "" and "Local" (SCHED-3, SCHED-4). When day-of-month and
//     day-of-week are both restricted a date matches if either does
//     (SCHED-7). Two cronexpr v1.1.3 misreadings of day-of-week are fixed
//     first (dow.go): `5-7` is Friday to Sunday, and `05` is Friday.
//  2. Each matching date-time maps to one instant (SCHED-6): its only
//     occurrence; its first occurrence when a fall-back repeats it; and,
//     when a spring-forward gap skips it, the date-time read with the
//     pre-gap offset (New York 2024-03-10 02:30 is 03:30 EDT). START and END
//     are the instants so obtained.
//  3. Each S in START opens the window [S, E(S)), E(S) the earliest END
//     strictly after S; with no such END the window never closes (SCHED-5).
//  4. An instant t is inside when some window holds it. E is non-decreasing,
//     so with e the latest END at or before t, t is inside exactly when a
//     START lies in [e, t] (any START at or before t when there is no e).
//  5. Windows sharing one end form a merged window, the thing a task
//     experiences. Inside, WindowEnd is the first END after t and
//     WindowStart the earliest START at or after e; windows that only touch
//     (one ends where the next starts) stay separate, so a daily
//     `0 9`-to-`0 9` schedule is always inside with WindowEnd the next
//     09:00.
//  6. NextStart is the earliest START at or after WindowEnd when inside (a
//     window may start right at WindowEnd), the earliest START after t when
//     outside; NextEnd = E(NextStart). Zero times mean none: a window that
//     never closes, or no future start (SCHED-9: years past 2099 or
//     exhausted, impossible dates such as `0 9 30 2 * *`, empty ranges).
//  7. NextWindows lists merged windows from t on: the one holding t if t is
//     inside, then each opened by the first START at or after the previous
//     window's end.
//
// Evaluation instants keep their sub-second part; returned instants are
// whole seconds in the schedule's zone.
//
// # How it is computed
//
// cronexpr searches the naive timeline: wall-clock date-times written as
// if they were UTC, which has no DST (naive.go; cronexpr only searches
// forward, so backward searches gallop and bisect). Zone offsets come from
// the location one offset change at a time (wallclock.go), and the gap and
// repeat rules of step 2 are applied explicitly rather than through
// time.Date, which resolves gaps differently per zone. Because gap
// date-times land after later wall times (02:30 lands after 03:00), START
// and END are searched as two sorted streams, existing date-times in naive
// order and gap date-times gap by gap, and merged (instants.go). Every
// search is bounded by cronexpr's 1970..2099 years and the zone's finitely
// many transitions in them.
//
// The tz database is whatever time.LoadLocation finds, the system's first;
// this package does not import time/tzdata (binaries do, SCHED-4). Newer
// databases make legacy names links (EST to America/Panama, EST5EDT to
// America/New_York), which can read differently from the old standalone
// zones before 1970.
package schedule
