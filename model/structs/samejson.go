package structs

import (
	"maps"
	"math"
	"slices"

	"github.com/allocsim/allocsim/model/schedule"
)

// SameJSON comparers: a.SameJSON(b) reports whether a and b certainly
// have the same encoding/json encoding. They compare every field JSON
// reads, strictly: nil and empty maps and slices differ, times must be
// identical (==: instant, zone and monotonic reading, where Equal would
// ignore the zone JSON prints), Config floats bit-identical (JSON tells 0
// from -0), the dynamic types of Config values identical. So a false
// answer may be wrong (two encodings can still agree) but a true one never
// is. The state DB uses them to reuse the bytes of an unchanged alloc
// (STATE-2's 60 s snapshots) without encoding it again.
//
// They are written out field by field, and a field they miss would make
// the state DB keep stale bytes: TestSameJSONSeesEveryField reaches every
// field of a full alloc by reflection, changes it, and fails if the
// comparers still answer same. A field added to any type below Allocation
// must be compared here.

// SameJSON reports whether a and b certainly encode alike (see above).
func (a *Allocation) SameJSON(b *Allocation) bool {
	if a == nil || b == nil || a == b {
		return a == b
	}
	return a.ID == b.ID && a.Name == b.Name && a.NodeID == b.NodeID && a.Namespace == b.Namespace &&
		a.JobID == b.JobID && a.TaskGroup == b.TaskGroup && a.DesiredStatus == b.DesiredStatus &&
		a.ClientStatus == b.ClientStatus && a.ClientDescription == b.ClientDescription &&
		a.CreateIndex == b.CreateIndex && a.ModifyIndex == b.ModifyIndex && a.AllocModifyIndex == b.AllocModifyIndex &&
		a.CreateTime == b.CreateTime && a.ModifyTime == b.ModifyTime &&
		sameTaskStates(a.TaskStates, b.TaskStates) && a.DeploymentStatus.sameJSON(b.DeploymentStatus) &&
		samePtr(a.NetworkStatus, b.NetworkStatus) && a.Job.sameJSON(b.Job)
}

// SameJSON reports whether s and o certainly encode alike (Allocation's
// SameJSON).
func (s *TaskState) SameJSON(o *TaskState) bool {
	if s == nil || o == nil || s == o {
		return s == o
	}
	return s.State == o.State && s.Failed == o.Failed && s.Restarts == o.Restarts &&
		s.LastRestart == o.LastRestart && s.StartedAt == o.StartedAt && s.FinishedAt == o.FinishedAt &&
		s.Paused == o.Paused && sameSlice(s.Events, o.Events, (*TaskEvent).SameJSON)
}

// SameJSON reports whether e and o certainly encode alike (Allocation's
// SameJSON): they are equal in every field, so a copy may share o for e
// (CopySharingEvents; TestSameJSONComparesEveryEventField keeps the
// field list whole).
func (e *TaskEvent) SameJSON(o *TaskEvent) bool {
	if e == nil || o == nil || e == o {
		return e == o
	}
	return e.Type == o.Type && e.Time == o.Time && e.Message == o.Message && e.DisplayMessage == o.DisplayMessage &&
		e.FailsTask == o.FailsTask && e.RestartReason == o.RestartReason && e.SetupError == o.SetupError &&
		e.DriverError == o.DriverError && e.ExitCode == o.ExitCode && e.Signal == o.Signal &&
		e.KillReason == o.KillReason && e.KillTimeout == o.KillTimeout && e.KillError == o.KillError &&
		e.StartDelay == o.StartDelay && e.FailedSibling == o.FailedSibling && e.TaskSignal == o.TaskSignal &&
		e.TaskSignalReason == o.TaskSignalReason && e.ValidationError == o.ValidationError &&
		sameMap(e.Details, o.Details)
}

func sameTaskStates(a, b map[string]*TaskState) bool {
	return sameMapFunc(a, b, (*TaskState).SameJSON)
}

func (d *AllocDeploymentStatus) sameJSON(o *AllocDeploymentStatus) bool {
	if d == nil || o == nil || d == o {
		return d == o
	}
	return samePtr(d.Healthy, o.Healthy) && d.Timestamp == o.Timestamp && d.Canary == o.Canary &&
		d.ModifyIndex == o.ModifyIndex
}

func (j *Job) sameJSON(o *Job) bool {
	if j == nil || o == nil || j == o {
		return j == o
	}
	return j.ID == o.ID && j.Name == o.Name && j.Namespace == o.Namespace && j.Type == o.Type &&
		j.ParentID == o.ParentID && j.Dispatched == o.Dispatched && sameMap(j.Meta, o.Meta) &&
		j.ParameterizedJob.sameJSON(o.ParameterizedJob) && sameSlice(j.TaskGroups, o.TaskGroups, (*TaskGroup).sameJSON)
}

func (p *ParameterizedJobConfig) sameJSON(o *ParameterizedJobConfig) bool {
	if p == nil || o == nil || p == o {
		return p == o
	}
	return p.Payload == o.Payload && sameStrings(p.MetaRequired, o.MetaRequired) &&
		sameStrings(p.MetaOptional, o.MetaOptional)
}

func (tg *TaskGroup) sameJSON(o *TaskGroup) bool {
	if tg == nil || o == nil || tg == o {
		return tg == o
	}
	if tg.Name != o.Name || tg.Count != o.Count || !tg.RestartPolicy.sameJSON(o.RestartPolicy) ||
		!sameSlice(tg.Tasks, o.Tasks, (*Task).sameJSON) {
		return false
	}
	return sameMapFunc(tg.Volumes, o.Volumes, samePtr[VolumeRequest])
}

func (p *RestartPolicy) sameJSON(o *RestartPolicy) bool {
	if p == nil || o == nil || p == o {
		return p == o
	}
	return samePtr(p.Attempts, o.Attempts) && samePtr(p.Interval, o.Interval) &&
		samePtr(p.Delay, o.Delay) && samePtr(p.Mode, o.Mode)
}

func (t *Task) sameJSON(o *Task) bool {
	if t == nil || o == nil || t == o {
		return t == o
	}
	return t.Name == o.Name && t.Driver == o.Driver && t.Leader == o.Leader && t.KillTimeout == o.KillTimeout &&
		t.KillSignal == o.KillSignal && samePtr(t.Lifecycle, o.Lifecycle) && sameSchedule(t.Schedule, o.Schedule) &&
		sameSlice(t.VolumeMounts, o.VolumeMounts, samePtr[VolumeMount]) && sameValue(t.Config, o.Config)
}

func sameSchedule(a, b *schedule.Schedule) bool {
	if a == nil || b == nil || a == b {
		return a == b
	}
	return samePtr(a.Cron, b.Cron)
}

// samePtr compares pointers to scalars or to flat structs of strings,
// bools and integers (VolumeRequest, TaskLifecycle, VolumeMount, Cron,
// AllocNetworkStatus): same nil-ness and == pointees.
func samePtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// sameSlice and sameMapFunc: JSON tells a nil slice or map (null) from
// an empty one.
func sameSlice[T any](a, b []T, same func(x, y T) bool) bool {
	return (a == nil) == (b == nil) && slices.EqualFunc(a, b, same)
}

func sameMapFunc[V any](a, b map[string]V, same func(x, y V) bool) bool {
	return (a == nil) == (b == nil) && maps.EqualFunc(a, b, same)
}

func sameStrings(a, b []string) bool { return (a == nil) == (b == nil) && slices.Equal(a, b) }

func sameMap(a, b map[string]string) bool { return (a == nil) == (b == nil) && maps.Equal(a, b) }

// sameValue compares JSON-shaped values (a task's Config): the types
// encoding/json decodes into, plus []string. Any other dynamic type
// compares false (it might marshal itself, or hold a float).
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && math.Float64bits(x) == math.Float64bits(y)
	case int:
		y, ok := b.(int)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case []string:
		y, ok := b.([]string)
		return ok && sameStrings(x, y)
	case []any:
		y, ok := b.([]any)
		return ok && sameSlice(x, y, sameValue)
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && sameMapFunc(x, y, sameValue)
	}
	return false
}
