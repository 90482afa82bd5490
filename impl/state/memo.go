package state

import (
	"encoding/json"
	"sync"

	"github.com/allocsim/allocsim/internal/allocjson"
	"github.com/allocsim/allocsim/model/structs"
)

// allocMemo spares the encoding of an unchanged alloc. A client persists
// every alloc every 60 s (STATE-2) although an alloc rarely changes
// between two snapshots, and encoding it (task states with their events,
// the job) is most of the cost of the write. The write itself still
// happens, fault hook and all: only the bytes are reused.
//
// For each alloc ID it keeps the last bytes encoded and the memo's own
// copy of the alloc encoded (its job decoded from the job's bytes, the
// rest deep-copied: memoCopy), and only when that copy compares same
// (structs.Allocation.SameJSON, typed, without reflection) to the alloc
// that was encoded. A later alloc that compares same to the copy
// therefore encodes to the same bytes (SameJSON is true only for values
// encoding/json encodes alike), so those bytes are reused. The copy is
// the memo's own memory: nothing a caller holds can change it. An alloc
// whose copy does not compare same (say, a job whose Config holds an int,
// which decodes as a float64) is marked, and its ID is not memoised again
// until its bucket is deleted, so it does not pay the copy at every
// write.
//
// A write of a changed alloc reuses the bytes of its job when that
// compares same to the memoised alloc's (allocjson.Alloc).
//
// It also keeps the caller's pointer whose encoding the bytes are (src):
// a caller that promises an alloc unchanged since it last put that very
// pointer (PutUnchangedAllocation) gets the bytes back without any
// comparison. The pointer is only read when the caller also promised
// never to change it (PutFrozenAllocation): then it is the decoded alloc's
// stand-in, compared as the decoded one would be, and nothing is decoded.
type allocMemo struct {
	mu      sync.Mutex
	entries map[string]memoEntry
	jobs    map[string]*structs.Job // decodedJob's: jobs decoded, by their bytes
	// byJob is the last job encoded for each (namespace, job ID), with the
	// memo's own job its bytes encode (never changed): an alloc seen for
	// the first time (a new alloc of a job already written, every alloc
	// of a restarted client) reuses those bytes when its job compares
	// same, where encoding it with encoding/json and decoding it back for
	// the memo's copy were 3 % of a conformance check's CPU.
	byJob map[jobKey]encodedJob
}

type jobKey struct{ namespace, id string }

type encodedJob struct {
	job *structs.Job
	enc []byte
}

// knownJob returns the bytes and the memo's job of the last job encoded
// under j's namespace and ID if j compares same to it, else nil.
func (m *allocMemo) knownJob(j *structs.Job) ([]byte, *structs.Job) {
	if j == nil {
		return nil, nil
	}
	m.mu.Lock()
	k, ok := m.byJob[jobKey{j.Namespace, j.ID}]
	m.mu.Unlock()
	if !ok || !sameJobJSON(j, k.job) {
		return nil, nil
	}
	return k.enc, k.job
}

// sameJobJSON reports whether two jobs encode alike, by the comparison
// structs.Allocation.SameJSON makes of allocs' jobs.
func sameJobJSON(a, b *structs.Job) bool {
	return (&structs.Allocation{Job: a}).SameJSON(&structs.Allocation{Job: b})
}

// rememberJob records enc, the encoding of the memo's job j, for
// knownJob.
func (m *allocMemo) rememberJob(j *structs.Job, enc []byte) {
	if j == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byJob == nil || len(m.byJob) >= maxDecodedJobs {
		m.byJob = map[jobKey]encodedJob{}
	}
	m.byJob[jobKey{j.Namespace, j.ID}] = encodedJob{job: j, enc: enc}
}

// maxDecodedJobs bounds allocMemo.jobs: when full it is emptied.
const maxDecodedJobs = 64

// decodedJob is the memo's job decoded from job: the allocs of one job
// (a group's count, every alloc a job update replaces) encode the same
// job bytes, and decoding the job for each alloc's memo copy was 2 % of a
// conformance check's CPU. The job is shared by the memo copies that
// stand for those allocs, which nothing changes (as jobFor shares a
// memoised alloc's job). Nil when job does not decode (memoCopy then
// fails as it did).
func (m *allocMemo) decodedJob(job []byte) *structs.Job {
	m.mu.Lock()
	j, ok := m.jobs[string(job)]
	m.mu.Unlock()
	if ok {
		return j
	}
	if json.Unmarshal(job, &j) != nil || j == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.jobs == nil || len(m.jobs) >= maxDecodedJobs {
		m.jobs = map[string]*structs.Job{}
	}
	m.jobs[string(job)] = j
	return j
}

type memoEntry struct {
	alloc *structs.Allocation // nil: this ID is not memoised
	enc   value               // shared with the store: never modified
	src   *structs.Allocation // the caller's alloc enc encodes
	job   []byte              // alloc.Job's encoding (a ref of enc's rope)
}

// encode returns the JSON encoding of a, reusing the memoised bytes when
// a equals the memoised alloc, or, with unchanged, when a is the pointer
// they were last encoded from (the caller promises it did not change).
func (m *allocMemo) encode(a *structs.Allocation, unchanged bool, reuse allocjson.Lender) (value, error) {
	return m.encodeAs(a, unchanged, false, reuse)
}

// encodeFrozen is encode of an alloc its caller will never change: when
// it must be encoded, it is kept as the memo's alloc itself (SameJSON to
// a is what the bytes encode either way), with no decode.
func (m *allocMemo) encodeFrozen(a *structs.Allocation, reuse allocjson.Lender) (value, error) {
	return m.encodeAs(a, false, true, reuse)
}

// encodeAs encodes a when it must, as a rope (allocjson.AllocRefs) that
// references what reuse lends of a's task states and the job's bytes.
func (m *allocMemo) encodeAs(a *structs.Allocation, unchanged, frozen bool, reuse allocjson.Lender) (value, error) {
	m.mu.Lock()
	e, seen := m.entries[a.ID]
	m.mu.Unlock()
	switch {
	case unchanged && seen && e.src == a:
		return e.enc, nil
	case e.alloc != nil && a.SameJSON(e.alloc):
		m.record(a.ID, memoEntry{alloc: e.alloc, enc: e.enc, src: a, job: e.job})
		return e.enc, nil
	}
	job, sameJob := e.jobFor(a)
	if job == nil {
		job, sameJob = m.knownJob(a.Job)
	}
	fresh := job == nil
	if fresh {
		var err error
		if job, err = json.Marshal(a.Job); err != nil {
			return value{}, err
		}
	}
	flat, refs, err := allocjson.AllocRefs(a, job, reuse)
	if err != nil {
		return value{}, err
	}
	enc := value{flat: flat, refs: refs}
	if frozen {
		if fresh {
			m.rememberJob(a.Job, job) // frozen: a.Job is never changed either
		}
		m.record(a.ID, memoEntry{alloc: a, enc: enc, src: a, job: job})
		return enc, nil
	}
	var own *structs.Allocation
	if !seen || e.alloc != nil { // a marked ID is not copied again
		if sameJob == nil {
			sameJob = m.decodedJob(job)
		}
		own = memoCopy(a, job, sameJob)
		if fresh && own != nil {
			m.rememberJob(own.Job, job)
		}
	}
	m.record(a.ID, memoEntry{alloc: own, enc: enc, src: a, job: job})
	return enc, nil
}

// jobFor returns the entry's job bytes and the memo's job they encode
// when that job compares same to a's (most writes of an alloc change its
// task states, not its job), else nil.
func (e memoEntry) jobFor(a *structs.Allocation) ([]byte, *structs.Job) {
	if e.alloc != nil && e.job != nil &&
		sameJobJSON(a.Job, e.alloc.Job) {
		return e.job, e.alloc.Job
	}
	return nil, nil
}

// memoCopy is the memo's own alloc standing for a, whose job encodes as
// job: a deep copy of all but the job (CopySkipJob), with sameJob, the
// memo's job a's compares same to or the memo's decoding of job
// (decodedJob), or else the job decoded from its bytes. It is nil when it
// does not compare same to a.
func memoCopy(a *structs.Allocation, job []byte, sameJob *structs.Job) *structs.Allocation {
	own := a.CopySkipJob()
	own.Job = sameJob
	if sameJob == nil && json.Unmarshal(job, &own.Job) != nil {
		return nil
	}
	if !a.SameJSON(own) {
		return nil
	}
	return own
}

func (m *allocMemo) record(allocID string, e memoEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.entries == nil {
		m.entries = map[string]memoEntry{}
	}
	m.entries[allocID] = e
}

// forget drops an alloc's entry (its bucket was deleted).
func (m *allocMemo) forget(allocID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.entries, allocID)
}
