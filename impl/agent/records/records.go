package records

import "github.com/allocsim/allocsim/model/structs"

// Job statuses (Nomad's Job.Status), as JobStatus derives them.
const (
	JobStatusPending = "pending"
	JobStatusRunning = "running"
	JobStatusDead    = "dead"
)

// Evaluation statuses and triggers. Every evaluation a simulated server
// records is complete at once: there is no scheduler queue to wait in.
const (
	EvalStatusComplete = "complete"

	EvalTriggerJobRegister   = "job-register"
	EvalTriggerJobDeregister = "job-deregister"
	EvalTriggerAllocStop     = "alloc-stop"
	EvalTriggerAllocFailure  = "alloc-failure"
)

// DefaultJobPriority is the priority of every job and evaluation: the
// domain job has no priority (Nomad's default is 50).
const DefaultJobPriority = 50

// Node defaults: a node registered without a description (Node).
const (
	NodeEligible                = "eligible"
	DefaultNodeDatacenter       = "dc1"
	DefaultNodePool             = "default"
	defaultNodeNamePrefix       = "node-"
	defaultNodeNameIDCharacters = 8
)

// JobStamp is what a server stamps on one version of a job when it is
// registered: its version (0 first, +1 for each registration that changes
// the job or restarts a stopped one, +1 for a stop), its submit time (Unix
// ns) and the log indexes of the job's creation and of that version.
type JobStamp struct {
	Version        uint64 `json:"Version"`
	SubmitTime     int64  `json:"SubmitTime"`
	CreateIndex    uint64 `json:"CreateIndex"`
	JobModifyIndex uint64 `json:"JobModifyIndex"`
}

// Job is a registered job as the server holds it: the job, the
// stamp of its current version, whether it is stopped, and the index of
// the last change to the record.
type Job struct {
	Job *structs.Job `json:"Job"`
	JobStamp
	Stop        bool   `json:"Stop"`
	ModifyIndex uint64 `json:"ModifyIndex"`
}

// Copy deep-copies the record.
func (r *Job) Copy() *Job {
	if r == nil {
		return nil
	}
	out := *r
	out.Job = r.Job.Copy()
	return &out
}

// JobStatus derives a job's status from its record and the allocs of its
// current incarnation (Nomad's pending/running/dead): a parameterized job
// (a template) is running; a job with an alloc that is neither server- nor
// client-terminal is running; else a stopped job is dead; else a job with
// no alloc is pending (nothing placed yet, e.g. a group count of 0); else
// (every alloc terminal) dead.
func JobStatus(rec *Job, allocs []*structs.Allocation) string {
	if rec == nil || rec.Job == nil {
		return JobStatusPending
	}
	if rec.Job.IsParameterized() {
		return JobStatusRunning
	}
	n := 0
	for _, a := range allocs {
		if a == nil {
			continue
		}
		n++
		if !a.Terminal() {
			return JobStatusRunning
		}
	}
	if rec.Stop || n > 0 {
		return JobStatusDead
	}
	return JobStatusPending
}

// TaskGroupCounts counts allocs of one task group by client status, as
// Nomad's job summary does (Starting = pending).
type TaskGroupCounts struct {
	Queued, Complete, Failed, Running, Starting, Lost, Unknown int
}

// SummarizeAllocs counts allocs per task group of job (every group of the
// job appears, zero if it has no alloc; allocs of groups the job no longer
// has are counted under their group too).
func SummarizeAllocs(job *structs.Job, allocs []*structs.Allocation) map[string]TaskGroupCounts {
	out := map[string]TaskGroupCounts{}
	if job != nil {
		for _, tg := range job.TaskGroups {
			if tg != nil {
				out[tg.Name] = TaskGroupCounts{}
			}
		}
	}
	for _, a := range allocs {
		if a == nil {
			continue
		}
		c := out[a.TaskGroup]
		switch a.ClientStatus {
		case structs.AllocClientStatusPending:
			c.Starting++
		case structs.AllocClientStatusRunning:
			c.Running++
		case structs.AllocClientStatusComplete:
			c.Complete++
		case structs.AllocClientStatusFailed:
			c.Failed++
		case structs.AllocClientStatusLost:
			c.Lost++
		default:
			c.Unknown++
		}
		out[a.TaskGroup] = c
	}
	return out
}

// Eval is an evaluation as the server records it. The simulated
// server schedules synchronously, so every evaluation is EvalStatusComplete
// when it is created (CreateIndex = ModifyIndex, CreateTime = ModifyTime).
type Eval struct {
	ID             string `json:"ID"`
	Namespace      string `json:"Namespace"`
	Priority       int    `json:"Priority"`
	Type           string `json:"Type"`
	TriggeredBy    string `json:"TriggeredBy"`
	JobID          string `json:"JobID"`
	JobModifyIndex uint64 `json:"JobModifyIndex"`
	NodeID         string `json:"NodeID"`
	Status         string `json:"Status"`
	CreateIndex    uint64 `json:"CreateIndex"`
	ModifyIndex    uint64 `json:"ModifyIndex"`
	CreateTime     int64  `json:"CreateTime"`
	ModifyTime     int64  `json:"ModifyTime"`
}

// Alloc is what the server knows about an alloc beyond the alloc
// itself: the evaluation that placed it ("" for an alloc placed without
// one, e.g. by a simulator's own scenario) and the stamp of the job
// version it runs.
type Alloc struct {
	EvalID string   `json:"EvalID"`
	Job    JobStamp `json:"Job"`
}

// Node is a node as the server knows it.
type Node struct {
	ID         string `json:"ID"`
	Name       string `json:"Name"`
	Datacenter string `json:"Datacenter"`
	NodePool   string `json:"NodePool"`
	NodeClass  string `json:"NodeClass"`
	Status     string `json:"Status"`
	// Drivers are the task drivers the node has, sorted.
	Drivers     []string `json:"Drivers"`
	CreateIndex uint64   `json:"CreateIndex"`
	ModifyIndex uint64   `json:"ModifyIndex"`
}

// DefaultNodeName is the name of a node registered without one:
// `node-<the first 8 characters of its ID>`.
func DefaultNodeName(id string) string {
	if len(id) > defaultNodeNameIDCharacters {
		id = id[:defaultNodeNameIDCharacters]
	}
	return defaultNodeNamePrefix + id
}
