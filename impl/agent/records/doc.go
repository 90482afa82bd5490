// Package records holds what a server records about jobs, evaluations,
// allocs and nodes beyond SPEC §1's domain data: the job versions,
// evaluations and node descriptions Nomad's HTTP API serves and its CLI
// prints (project issue 14), and the rules that derive what it shows from
// them (a job's status, its summary counts, a node's default name). SPEC
// is silent on all of it; SPEC-NOTES.md "Nomad API coverage (issue 14)"
// records the decisions.
//
// The simulated server (sim/server) keeps these records beside its traced
// state, and the agent (impl/agent's Cluster) serves them. It is a leaf
// of the agent's public surface, importing only model/structs: a sim
// package that records them depends on no runner.
package records
