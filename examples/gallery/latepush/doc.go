// Package latepush is a foreign runner shape for the conformance suite's
// own tests: a node simulator's alloc runner that debounces its pushes.
//
// Run marks every task of the alloc's group received, started and
// running, stamping the events and StartedAt with the injected clock's
// Now (Config.Clock, as DET-1 asks), then waits 100 ms on that clock
// (Clock.Sleep) "so that a quick follow-up change rides the same push"
// before it calls AllocStateUpdated. The change is therefore reported
// 100 ms of virtual time after it was made, while SYNC-1 asks that every
// computed change be pushed at once.
//
// Verdict the suite must give, under the client-communication profile on
// the reference node client: fails with a SYNC-1 late-push verdict (a
// change stamped at t pushed at t+100ms).
package latepush
