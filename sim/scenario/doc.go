// Package scenario is a simulated run as data (DESIGN.md "Runs, traces,
// properties"): the start instant and length, the client's local zone
// and profile, the jobs registered and when, the API calls made and when,
// and the fault plan (which holds the crash points: client_crash faults).
//
// A scenario is generated (Draw from a rapid.T, so failing scenarios
// shrink; Generate from a seed alone, so a seed names one), loaded from a
// JSON fixture (Decode, Load; fixtures/scenarios/), and printed in a
// readable text form (String). Offsets (At, Duration) are relative to
// Start and are written as Go duration strings ("1m30s") in JSON; jobs
// keep the Nomad API shape of model/structs.
//
// API calls name allocations by their server name, "<job>.<group>[<i>]";
// the world resolves a name to the newest alloc of that name when the
// call is made. Ops:
//
//	pause, run, resume   ClientAllocations.SetPauseState with force_pause,
//	                     force_run, schedule_resume (API-2 pause|run|scheduled)
//	get_pause            ClientAllocations.GetPauseState
//	signal               ClientAllocations.Signal (Task empty: every task)
//	stop_job             the job's allocs are stopped (desired stop)
//	evict_alloc          the alloc is evicted (desired evict, server-terminal
//	                     like a stop: DATA-5, AR-10)
//	update_schedule      the job is re-registered with Task's schedule
//	                     replaced by Schedule (in-place update, PAUSE-7)
//	restart              ClientAllocations.Restart: Task restarted in place
//	                     (AR-1's RestartTask; Task empty: RestartRunning),
//	                     `Restart Signaled`, no restart attempt used
//	gc_alloc             the servers garbage-collect the alloc if it is
//	                     terminal (server- and client-terminal): it leaves
//	                     its node's alloc list, and the client destroys it
//
// The generator draws every op but restart and gc_alloc (swarm.go); the
// properties that need them add them to their scenarios.
package scenario
