package structs

import (
	"time"

	"github.com/allocsim/allocsim/model/schedule"
)

// Job types (DATA-2).
const (
	JobTypeService  = "service"
	JobTypeBatch    = "batch"
	JobTypeSystem   = "system"
	JobTypeSysBatch = "sysbatch"
)

// DefaultNamespace is the namespace of a job that names none (DATA-2).
const DefaultNamespace = "default"

// Lifecycle hooks of a task (DATA-4); a nil Lifecycle is a main task.
const (
	TaskLifecycleHookPrestart  = "prestart"
	TaskLifecycleHookPoststart = "poststart"
	TaskLifecycleHookPoststop  = "poststop"
)

// Kill defaults (DATA-4).
const (
	DefaultKillTimeout    = 5 * time.Second
	DefaultMaxKillTimeout = 30 * time.Second
	DefaultKillSignal     = "SIGINT"
)

// VolumeTypeCSI is the only volume type that is mounted (DATA-3).
const VolumeTypeCSI = "csi"

// Job is DATA-2. The last four fields are Nomad's parameterized jobs
// (parameterized.go); absent, they leave a job's JSON as it was.
type Job struct {
	ID         string       `json:"ID"`
	Name       string       `json:"Name"`
	Namespace  string       `json:"Namespace"`
	Type       string       `json:"Type"`
	TaskGroups []*TaskGroup `json:"TaskGroups"`
	// Meta is the job's meta block: tasks see each key as NOMAD_META_<key>
	// (MetaEnv).
	Meta map[string]string `json:"Meta,omitempty"`
	// ParameterizedJob makes the job a template that runs only when
	// dispatched (Job.Dispatch).
	ParameterizedJob *ParameterizedJobConfig `json:"ParameterizedJob,omitempty"`
	// ParentID and Dispatched mark a job dispatched from ParentID.
	ParentID   string `json:"ParentID,omitempty"`
	Dispatched bool   `json:"Dispatched,omitempty"`
}

// TaskGroup is DATA-3.
type TaskGroup struct {
	Name          string                    `json:"Name"`
	Count         int                       `json:"Count"`
	RestartPolicy *RestartPolicy            `json:"RestartPolicy"`
	Tasks         []*Task                   `json:"Tasks"`
	Volumes       map[string]*VolumeRequest `json:"Volumes"`
}

// VolumeRequest is a group volume, keyed by its alias (DATA-3).
type VolumeRequest struct {
	Name     string `json:"Name"`
	Type     string `json:"Type"`
	Source   string `json:"Source"`
	ReadOnly bool   `json:"ReadOnly"`
}

// Task is DATA-4.
type Task struct {
	Name         string             `json:"Name"`
	Driver       string             `json:"Driver"`
	Config       map[string]any     `json:"Config"`
	Lifecycle    *TaskLifecycle     `json:"Lifecycle"`
	Leader       bool               `json:"Leader"`
	KillTimeout  time.Duration      `json:"KillTimeout"`
	KillSignal   string             `json:"KillSignal"`
	Schedule     *schedule.Schedule `json:"Schedule"`
	VolumeMounts []*VolumeMount     `json:"VolumeMounts"`
}

// TaskLifecycle is DATA-4's Lifecycle block.
type TaskLifecycle struct {
	Hook    string `json:"Hook"`
	Sidecar bool   `json:"Sidecar"`
}

// VolumeMount mounts a group volume alias into a task (DATA-4).
type VolumeMount struct {
	Volume      string `json:"Volume"`
	Destination string `json:"Destination"`
	ReadOnly    bool   `json:"ReadOnly"`
}

// Canonicalize fills the defaults of DATA-2..DATA-4 in place: namespace,
// type, restart policies by job type, kill timeout and kill signal; and a
// parameterized job's payload requirement (optional).
func (j *Job) Canonicalize() {
	if j == nil {
		return
	}
	if j.Namespace == "" {
		j.Namespace = DefaultNamespace
	}
	if j.Type == "" {
		j.Type = JobTypeService
	}
	if p := j.ParameterizedJob; p != nil && p.Payload == "" {
		p.Payload = DispatchPayloadOptional
	}
	for _, tg := range j.TaskGroups {
		if tg == nil {
			continue
		}
		tg.RestartPolicy = tg.RestartPolicy.WithDefaults(j.Type)
		for _, t := range tg.Tasks {
			if t == nil {
				continue
			}
			if t.KillTimeout == 0 {
				t.KillTimeout = DefaultKillTimeout
			}
			if t.KillSignal == "" {
				t.KillSignal = DefaultKillSignal
			}
		}
	}
}

// LookupTaskGroup returns the named group, or nil.
func (j *Job) LookupTaskGroup(name string) *TaskGroup {
	if j == nil {
		return nil
	}
	for _, tg := range j.TaskGroups {
		if tg != nil && tg.Name == name {
			return tg
		}
	}
	return nil
}

// LookupTask returns the named task, or nil.
func (tg *TaskGroup) LookupTask(name string) *Task {
	if tg == nil {
		return nil
	}
	for _, t := range tg.Tasks {
		if t != nil && t.Name == name {
			return t
		}
	}
	return nil
}

// IsMain reports whether the task has no lifecycle hook.
func (t *Task) IsMain() bool { return t.Lifecycle == nil || t.Lifecycle.Hook == "" }

// IsPrestart, IsPoststart and IsPoststop report the task's lifecycle hook.
func (t *Task) IsPrestart() bool  { return t.hook() == TaskLifecycleHookPrestart }
func (t *Task) IsPoststart() bool { return t.hook() == TaskLifecycleHookPoststart }
func (t *Task) IsPoststop() bool  { return t.hook() == TaskLifecycleHookPoststop }

// IsSidecar reports whether the task is a lifecycle sidecar.
func (t *Task) IsSidecar() bool { return t.Lifecycle != nil && t.Lifecycle.Sidecar }

func (t *Task) hook() string {
	if t.Lifecycle == nil {
		return ""
	}
	return t.Lifecycle.Hook
}

// IsScheduled reports whether the task has a schedule block (SCHED-1: a
// Schedule with a nil Cron counts as set).
func (t *Task) IsScheduled() bool { return t.Schedule != nil }

// EffectiveKillTimeout is the task's kill timeout (default 5s) capped by the
// client's max_kill_timeout (default 30s when max is zero) (DATA-4).
func (t *Task) EffectiveKillTimeout(max time.Duration) time.Duration {
	kt := t.KillTimeout
	if kt <= 0 {
		kt = DefaultKillTimeout
	}
	if max <= 0 {
		max = DefaultMaxKillTimeout
	}
	if kt > max {
		return max
	}
	return kt
}

// EffectiveKillSignal is the task's kill signal, SIGINT by default.
func (t *Task) EffectiveKillSignal() string {
	if t.KillSignal == "" {
		return DefaultKillSignal
	}
	return t.KillSignal
}
