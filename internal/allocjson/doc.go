// Package allocjson writes encoding/json's bytes for allocs, task states
// and acknowledged states by hand, falling back to json.Marshal for
// whatever it does not write exactly as encoding/json would, so that the
// bytes are json.Marshal's in every case: the state DB (impl/state)
// stores them at every task state change, snapshot and acknowledgement,
// and the simulated server (sim/server) counts them for its Raft log
// statistics at every committed batch of client updates. It reads task
// and acknowledged states back by hand too (Unmarshal), when they are
// exactly such bytes, and by json.Unmarshal otherwise, so that the value
// is json.Unmarshal's in every case: a restoring client reads them for
// every task.
package allocjson
