// Package jobcmd is `conform job run`: submit a jobspec file (HCL or the
// API's JSON, parsed by impl/jobspec) to an agent with the official Go
// client, as `nomad job run` does, and list the allocs it placed.
//
// Steps:
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
package jobcmd
