// Package leaker is a foreign runner shape for the conformance suite's
// own tests: a correct alloc runner (Run reports the alloc running once,
// like examples/noderunner) that, as node simulators often do, also
// starts a heartbeat goroutine in Run. The heartbeat ticks on a Ticker
// of the injected clock (Config.Clock, every 10 s of virtual time) and
// records when the alloc was last seen alive; nothing ever stops it:
// Shutdown and Destroy do nothing, so the goroutine outlives the client
// (interfaces rule 8).
//
// Verdict the suite must give, under the client-communication profile on
// the reference node client: fails, with a goroutine-leak diagnosis
// (goroutines of the client left after Shutdown returned) that names
// where the leaked goroutine was started: (*Runner).Run in this package,
// blocked in (*Runner).heartbeat.
package leaker
