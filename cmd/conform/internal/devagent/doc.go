// Package devagent wires the dev agent behind `conform agent -dev`: the
// reference node client running on the real clock against the in-process
// simulated server, with the Nomad-compatible HTTP API in front (SPEC §5,
// project issue 6).
//
// What Start builds, in order (Close undoes it in reverse):
//
//  1. the data dir: Config.DataDir, or a fresh temporary dir that Close
//     removes; the bbolt state DB in <data>/client (STATE-1) and the alloc
//     dirs under <data>/alloc (ADIR-2, on disk);
//  2. the server (sim/server) on the agent's clock, with the admission
//     profile (SCOPE-2) and one node registered `ready` for the local
//     client;
//  3. the drivers: `mock_driver` (plans on the clock, nothing runs) and
//     `raw_exec` (local processes, PATH from Config.Path, the rest of
//     their base environment from Config.Env);
//  4. the reference client (impl/client with the reference alloc runner),
//     connected to the server by an in-process RPC transport that copies
//     every request and reply through JSON, as a wire would, and whose
//     calls Shutdown cancels; the server forwards API-7 calls to the
//     client over the same kind of connection;
//  5. the HTTP API (impl/agent) on Config.HTTPAddr, 127.0.0.1:4646 unless
//     told otherwise, with hook telemetry in an in-memory sink served at
//     /v1/metrics.
//
// Close, for a dev agent whose server state lives only in memory:
//
//  1. stop serving HTTP; requests still streaming (a follow of `alloc
//     logs -f` or `alloc fs -f`) see their context end, so they do not
//     hold the shutdown up;
//  2. stop every job on the server and wait, bounded by
//     Config.StopTimeout, until the client has finished each alloc, so no
//     raw_exec process outlives the agent (on timeout the drivers are
//     closed at once: tasks still being killed are abandoned, running);
//  3. shut the client down and wait, bounded the same way, until every
//     alloc runner has finished shutting down (an alloc runner's Shutdown
//     returns at once and persists its state afterwards);
//  4. disconnect the node, close the drivers and the state DB, remove a
//     temporary data dir.
//
// The agent reaches the server through sim/apiserver, the adapter from
// sim/server to agent.Server that simulated worlds use too: it adds what
// the simulated server does not track (evaluation IDs drawn from the
// agent's seeded "evals" stream, register indexes, alloc listings by job
// and by ID prefix).
//
// This package lives under cmd/ because it reads the real clock, the
// environment's randomness and the file system; impl/ and sim/ stay free
// of them (DET-1).
package devagent
