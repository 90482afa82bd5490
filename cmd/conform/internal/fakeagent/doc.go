// Package fakeagent is test support for conform's HTTP subcommands: the
// real HTTP API handler (impl/agent) over a scripted in-memory
// agent.Server, served by net/http/httptest on a loopback port, so that
// `job run` and `alloc pause` are tested through the official Go client
// against the wire format the dev agent serves.
//
// The Server keeps allocs and pause states, records what it was asked
// (registered jobs, prefixes, pause requests) and fails on demand. Pause
// requests follow the agent's server path (API-7): unknown alloc →
// `Unknown allocation "<id>"` (a 404), unknown task → `Task not found`
// (a 500).
package fakeagent
