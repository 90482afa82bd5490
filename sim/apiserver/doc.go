// Package apiserver adapts the simulated server (sim/server) to the
// HTTP agent's view of the servers (impl/agent.Server), so the
// Nomad-compatible HTTP API of SPEC §5 can be served in front of a
// simulated world (sim tests, driven through the official Go client over
// agent.InMemoryTransport) and in front of the dev agent's in-process
// server (cmd/conform/internal/devagent), by one adapter.
//
// What the adapter adds to the simulated server, which does not track
// them:
//
//  1. evaluation IDs: RegisterJob, DispatchJob, DeregisterJob and
//     StopAlloc each draw one from the adapter's own seeded source (a
//     World's "evals" stream), once the server has accepted the call, and
//     the server records the evaluation under it, so a seed still names
//     every ID a run shows;
//  2. register indexes (API-4): EvalCreateIndex and JobModifyIndex are
//     the log index of the registration, the highest AllocModifyIndex of
//     the allocs it placed or updated in place (PAUSE-7), or the server's
//     index when it touched none (a group count of 0);
//  3. alloc listings by job and by ID prefix (API-5), sorted by ID, from
//     the server's copies;
//  4. Metrics: the hook telemetry a World has recorded, as the
//     agent.MetricsSource that /v1/metrics renders (the World keeps its
//     go-metrics sink to itself and exposes the aggregated read);
//  5. the agent.Cluster part (issue 14): the server's job,
//     evaluation, alloc and node records passed through, its not-found
//     errors mapped to the agent's.
//
// Server RPCs (API-7: ClientAllocations.SetPauseState, GetPauseState,
// Signal, and Restart) go to the simulated server's Call unchanged; its routing errors
// (`missing AllocID`, `Unknown allocation "<id>"`, `No path to node`) and
// the client's own come back verbatim, for the agent to map to 404/500.
//
// Dependency decision: this package imports impl/agent (for the Server
// and MetricsSource interfaces it implements). DESIGN.md keeps sim away
// from runner internals (impl/allocrunner, impl/taskrunner, ...) so that
// any runner can be simulated; the HTTP API is not a runner internal but
// the agent's public surface, the same for every runner, so depending on
// it does not tie the simulator to one runner. The package sim itself
// still does not import impl/agent: only this adapter and the tests that
// drive the API do.
//
// Nothing here reads a clock or keeps state but the eval source (the
// records live in the simulated server): the adapter is safe for
// concurrent use and deterministic given its server and source (DET-1).
package apiserver
