// Package restore holds the suite's crash and restore properties (SPEC
// §10, STATE-2..STATE-4): no second Started for a recovered task,
// acknowledged state survives and is not re-sent, tasks that should run
// run again.
package restore
