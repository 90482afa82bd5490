// Package agent serves the Nomad-compatible HTTP API of SPEC §5 as plain
// net/http handlers and routes pause and signal requests to the client or
// the server (API-7).
//
// The handler depends on two small interfaces: Server (defined here: job
// registration, alloc reads and the server RPCs) and the agent's own
// client, interfaces.Client (optional). Conversions between the official
// API types (github.com/hashicorp/nomad/api) and the domain types live in
// the sub-package apiconv, and nowhere else.
//
// A request is served in this order:
//
//  1. route by method and path: the route table is Handler.routes, one
//     http.ServeMux pattern per route ("GET /v1/job/{id}"). A path that is
//     not the API's (unknown, of the wrong shape, or not clean: `//`,
//     `..`) is a 404 `Resource not found`; a path of the API with another
//     method a 405 `Invalid method` (API-1); a route of Nomad's API the
//     agent does not serve a 501 `<command> is not supported by this
//     agent`, naming the CLI command that calls it;
//  2. decode the JSON body, if any (400 `Failed to decode body: <err>`;
//     an empty body is an empty request);
//  3. check the request (API-2: the pause state mapping; API-4: a job and
//     its ID, then ValidateJob) before any lookup;
//  4. call the server, or route the RPC (API-7): the client RPC locally
//     when the agent's client holds the alloc, else the server RPC; RPC
//     errors naming an unknown allocation or node, or no path to a node,
//     are 404s, others 500s with the message;
//  5. reply 200 with JSON and the headers X-Nomad-Index (the server's
//     index, at least 1), X-Nomad-LastContact `0`, X-Nomad-KnownLeader
//     `true`; errors are plain text.
//
// Beyond SPEC §5, PUT/POST /v1/job/<id>/dispatch dispatches a
// parameterized job (Nomad's job dispatch API) when the Server is also a
// Dispatcher; the reply is Nomad's (Index, JobCreateIndex,
// EvalCreateIndex, EvalID, DispatchedJobID).
//
// The rest of what HashiCorp's `nomad` CLI reads (issues 14 and 24; the
// decisions are in SPEC-NOTES.md "Nomad API coverage (issue 14)"):
//
//  1. without anything more from the Server: the agent's identity
//     (/v1/agent/self, /v1/agent/members, /v1/status/leader and peers,
//     /v1/regions: one server, leader of its region, at Nomad's default
//     ports, reporting NomadVersion), job validation (the API-4 admission
//     answered as Nomad's validation response), metrics (go-metrics'
//     JSON summary, or Prometheus text), and alloc restarts (routed as
//     API-7 routes a signal, to the alloc runner's RestartTask,
//     RestartRunning or RestartAll);
//  2. when the Server is also a Cluster (records of package records):
//     job records (list, read, summary, versions, evaluations, no
//     deployments, stop and purge), evaluations, alloc stops, prefix
//     search and nodes;
//  3. every alloc served, alone or listed, carries what the CLI
//     dereferences (apiconv.ServedAlloc, ServedStub): the job
//     canonicalized as the official client canonicalizes one, with the
//     Version the alloc runs, the placing EvalID, the NodeName, the
//     allocated resources and placement metrics.
//
// Nothing here reads a clock or keeps state between requests: the handler
// is safe for concurrent use and deterministic given its Server and
// client. InMemoryTransport lets the official Go client call a handler
// without sockets, as simulations do.
package agent
