// Package seeds derives the independent pseudo-random sources of one
// simulated run from its seed (DESIGN.md "Determinism", DET-1).
//
// Every component draws from its own math/rand/v2 PCG source, keyed by a
// stable name ("server", "client/1", "faults/driver_start_failure"), so
// adding a component, or drawing more from one, never shifts another's
// draws. Decisions taken at calls whose order across goroutines is not
// fixed (a driver start of task A racing one of task B at the same
// instant) use Decision, keyed by what the call is about and its ordinal
// for that key, never by the global call order.
package seeds
