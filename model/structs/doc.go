// Package structs holds allocsim's domain data (SPEC §1): jobs, task groups,
// tasks, allocations, task states and task events, with the JSON field names
// of Nomad's HTTP API (DATA-1), and the rules that belong to the data itself:
//
//  1. restart policy defaults and validation (DATA-3);
//  2. kill timeout and kill signal defaults (DATA-4);
//  3. the stripped allocation a client sends to the server (SYNC-1) and the
//     server-/client-terminal predicates (DATA-5);
//  4. task state bookkeeping on event append: the newest 10 events, Failed
//     for good on a FailsTask event, Restarts/LastRestart on Restarting
//     (DATA-6), and task state equality for sync priority (SYNC-2);
//  5. task event setters that fill Details (DATA-7) and the DisplayMessage
//     derivation (DATA-8);
//  6. deep copies, and SameJSON comparers (samejson.go) that tell, without
//     reflection, that two allocs, task states or task events encode to
//     the same JSON (the state DB's reuse of unchanged allocs, STATE-2).
//
// Like the rest of model/ it has no goroutines, no clock reads and no I/O:
// every instant is a parameter.
package structs
