// Package pause is the pause-state machine of SPEC §4 (PAUSE-1..PAUSE-10,
// SCHED-9): given a task's stored pause state, its effective paused flag
// and one input (an operator request, the first arrival at the pause gate,
// a tracking boundary, a schedule change, a restore, an exit, the end of
// the loop) it returns the next state and what the task runner must do:
// events to append, whether to stop the live task, whether the gate may
// open, and what to do with the tracking timer.
//
// Machine is a plain value: no goroutines, no clock, no I/O, and it never
// evaluates a schedule. Callers evaluate (schedule.Evaluate) at the
// input's instant and pass the result in as an Evaluation.
//
// Stored states and the effective paused line (PAUSE-1, PAUSE-4):
//
//	                   NOT PAUSED          |          PAUSED
//	                                       |
//	            +------------+   outside   |   +-----------------+
//	tracking    |     ""     | ------------+-> | scheduled_pause |
//	(schedule)  |            | <-----------+-- |                 |
//	            +------------+   inside    |   +-----------------+
//	             ^        |                |    |             ^
//	      resume |        | force_run      |    | force_pause | resume
//	      inside |        v (silent)       |    v (silent)    | outside
//	            +------------+             |   +-----------------+
//	override    | force_run  | force_pause |   |  force_pause    |
//	(no         |            | ------------+-> |                 |
//	tracking)   |            | <-----------+-- |                 |
//	            +------------+  force_run  |   +-----------------+
//	                                       |
//
// Any arrow crossing the | line appends an event for the state it enters:
// Pausing "Pausing due to schedule" / "Pausing due to override", Running
// "Running due to schedule" / "Running due to override". Arrows that stay
// on one side append nothing (force_pause <-> scheduled_pause,
// force_run <-> ""). Every state takes every request (force_pause from ""
// pauses, schedule_resume from force_run may pause, ...). schedule_resume
// ("resume") is never stored: it evaluates and stores "" or
// scheduled_pause (PAUSE-2).
//
// Lifecycle of the machine:
//
//  1. Before the TR first reaches the gate, requests are stored and
//     nothing else happens: the effective state stays not paused (or the
//     restored one, PAUSE-10) and no event is appended, so Task Setup
//     precedes the first Pausing (PAUSE-3).
//  2. The first arrival turns effects on: an override is followed as
//     stored; otherwise tracking starts with the arrival's evaluation.
//     Arriving inside appends nothing (no Running before the first
//     Started); arriving outside appends Pausing. Later arrivals change
//     nothing (PAUSE-4 re-entry).
//  3. While tracking (stored "" or scheduled_pause), each boundary
//     evaluation stores the state and re-arms the one timer at WindowEnd
//     (inside) or NextStart (outside), none when zero. Overrides cancel
//     the timer; schedule_resume re-arms it (PAUSE-3).
//  4. Becoming paused with a live handle stops the task (PAUSE-5); the
//     next exit is pause-induced even if the state turned back to not
//     paused meanwhile (Exited -> PauseInduced, for AR-7/PAUSE-6).
//  5. Outside with no future start: once per distinct schedule, after the
//     Pausing event or on detection, the Task hook message
//     "Schedule has no future start time; task will remain paused"
//     (SCHED-9).
//  6. A runtime evaluation error (arrival, boundary, schedule change, live
//     restore) stops a live task, appends Task hook failed "pause: <err>"
//     and reports an unrecoverable start error; the machine is done
//     (PAUSE-9). A schedule_resume evaluation error is only returned, the
//     state kept (PAUSE-2).
//  7. After the loop finished for good, requests are stored, without
//     effect (PAUSE-2).
package pause
