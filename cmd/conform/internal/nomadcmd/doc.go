// Package nomadcmd is conform's commands that talk to a Nomad agent over
// its HTTP API, as the `nomad` CLI does, with the official Go client
// (github.com/hashicorp/nomad/api): `job run`, `job stop` and `alloc
// pause`.
//
// The agent's address, first match wins: the -address flag; the
// NOMAD_ADDR environment variable (read by api.DefaultConfig, which also
// honours NOMAD_REGION, NOMAD_NAMESPACE and the TLS variables);
// http://127.0.0.1:4646, where `conform agent -dev` listens by default.
//
// `conform job run` submits a jobspec file (HCL or the API's JSON, parsed
// by impl/jobspec) to an agent, as `nomad job run` does, and lists the
// allocs it placed; `conform job stop` stops (and purges) a job, as
// `nomad job stop` does.
//
// Steps of job run:
//
//  1. read the file and parse it (jobspec.Parse); parse errors are invalid
//     input (exit 2), warnings go to stderr;
//  2. convert it with apiconv.JobToAPI and register it: PUT /v1/jobs
//     (API-4); a rejection (validation, SCHED-1) fails with the agent's
//     message (exit 1);
//  3. print the evaluation ID and the registration index;
//  4. unless -detach, poll GET /v1/job/<id>/allocations (API-5) every
//     PollInterval until the registration's allocs (desired `run`,
//     ModifyIndex at or after the registration) number the job's total
//     group count, or -timeout passes, then print them as a table with
//     their client status at that moment.
//
// Steps of job stop (jobstop.go):
//
//  1. exactly one argument, the job ID, as given (no prefix lookup);
//     anything else is bad usage (exit 2);
//  2. DELETE /v1/job/<id>?purge=<bool> through the official client
//     (api.Jobs().Deregister); an error from the agent, or no agent,
//     fails with its message (exit 1);
//  3. print the job and the evaluation the agent created, if any.
package nomadcmd
