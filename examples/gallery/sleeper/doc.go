// Package sleeper is a foreign runner shape for the conformance suite's
// own tests: a node simulator's alloc runner that fakes task start-up the
// way such simulators usually do, on the real time package.
//
// Run marks every task of the alloc's group received, sleeps 100 ms
// ("pulling the image"), adds the task-directory setup event, sleeps
// 200 ms ("starting"), then marks the tasks started and running. Every
// timestamp it writes (task event times, StartedAt) is time.Now(), and
// the pauses are time.Sleep: it never touches the injected Config.Clock.
// Otherwise it is correct: ClientStatus and ClientDescription follow from
// the task states (AR-8), and every change is pushed at once (SYNC-1).
//
// Verdict the suite must give, under the client-communication profile on
// the reference node client: conforms. Inside the simulation the time
// package is kept in step with the world's virtual clock, so time.Now
// reads the world's now and time.Sleep waits virtual time.
package sleeper
