package apiconv

import (
	"maps"
	"slices"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// DefaultGroupCount is the Count of a task group that names none, as in
// Nomad's API.
const DefaultGroupCount = 1

// JobFromAPI converts an API job to a domain job (DATA-2..DATA-4). Absent
// strings become "", an absent group Count becomes DefaultGroupCount, an
// absent KillTimeout becomes 0 (Canonicalize fills defaults later). Fields
// the domain does not model are dropped. A nil job gives nil.
func JobFromAPI(j *api.Job) *structs.Job {
	if j == nil {
		return nil
	}
	out := &structs.Job{
		ID:         deref(j.ID),
		Name:       deref(j.Name),
		Namespace:  deref(j.Namespace),
		Type:       deref(j.Type),
		ParentID:   deref(j.ParentID),
		Dispatched: j.Dispatched,
	}
	if j.TaskGroups != nil {
		out.TaskGroups = make([]*structs.TaskGroup, len(j.TaskGroups))
		for i, tg := range j.TaskGroups {
			out.TaskGroups[i] = groupFromAPI(tg)
		}
	}
	if len(j.Meta) > 0 {
		out.Meta = maps.Clone(j.Meta)
	}
	if p := j.ParameterizedJob; p != nil {
		out.ParameterizedJob = &structs.ParameterizedJobConfig{Payload: p.Payload,
			MetaRequired: slices.Clone(p.MetaRequired), MetaOptional: slices.Clone(p.MetaOptional)}
	}
	return out
}

// JobToAPI converts a domain job to an API job. Empty Name, Namespace and
// Type are left absent (nil); the ID is always set.
func JobToAPI(j *structs.Job) *api.Job {
	if j == nil {
		return nil
	}
	out := &api.Job{
		ID:         ptr(j.ID),
		Name:       optional(j.Name),
		Namespace:  optional(j.Namespace),
		Type:       optional(j.Type),
		ParentID:   optional(j.ParentID),
		Dispatched: j.Dispatched,
	}
	if j.TaskGroups != nil {
		out.TaskGroups = make([]*api.TaskGroup, len(j.TaskGroups))
		for i, tg := range j.TaskGroups {
			out.TaskGroups[i] = groupToAPI(tg)
		}
	}
	if len(j.Meta) > 0 {
		out.Meta = maps.Clone(j.Meta)
	}
	if p := j.ParameterizedJob; p != nil {
		out.ParameterizedJob = &api.ParameterizedJobConfig{Payload: p.Payload,
			MetaRequired: slices.Clone(p.MetaRequired), MetaOptional: slices.Clone(p.MetaOptional)}
	}
	return out
}

func groupFromAPI(tg *api.TaskGroup) *structs.TaskGroup {
	if tg == nil {
		return nil
	}
	out := &structs.TaskGroup{
		Name:          deref(tg.Name),
		Count:         DefaultGroupCount,
		RestartPolicy: restartFromAPI(tg.RestartPolicy),
	}
	if tg.Count != nil {
		out.Count = *tg.Count
	}
	if tg.Tasks != nil {
		out.Tasks = make([]*structs.Task, len(tg.Tasks))
		for i, t := range tg.Tasks {
			out.Tasks[i] = taskFromAPI(t)
		}
	}
	if tg.Volumes != nil {
		out.Volumes = make(map[string]*structs.VolumeRequest, len(tg.Volumes))
		for alias, v := range tg.Volumes {
			var vr *structs.VolumeRequest
			if v != nil {
				vr = &structs.VolumeRequest{Name: v.Name, Type: v.Type, Source: v.Source, ReadOnly: v.ReadOnly}
			}
			out.Volumes[alias] = vr
		}
	}
	return out
}

func groupToAPI(tg *structs.TaskGroup) *api.TaskGroup {
	if tg == nil {
		return nil
	}
	out := &api.TaskGroup{
		Name:          ptr(tg.Name),
		Count:         ptr(tg.Count),
		RestartPolicy: restartToAPI(tg.RestartPolicy),
	}
	if tg.Tasks != nil {
		out.Tasks = make([]*api.Task, len(tg.Tasks))
		for i, t := range tg.Tasks {
			out.Tasks[i] = taskToAPI(t)
		}
	}
	if tg.Volumes != nil {
		out.Volumes = make(map[string]*api.VolumeRequest, len(tg.Volumes))
		for alias, v := range tg.Volumes {
			var vr *api.VolumeRequest
			if v != nil {
				vr = &api.VolumeRequest{Name: v.Name, Type: v.Type, Source: v.Source, ReadOnly: v.ReadOnly}
			}
			out.Volumes[alias] = vr
		}
	}
	return out
}

// restartFromAPI keeps absent fields absent: DATA-3 defaults them by job
// type (structs.RestartPolicy.WithDefaults).
func restartFromAPI(p *api.RestartPolicy) *structs.RestartPolicy {
	if p == nil {
		return nil
	}
	return &structs.RestartPolicy{
		Attempts: clonePtr(p.Attempts),
		Interval: clonePtr(p.Interval),
		Delay:    clonePtr(p.Delay),
		Mode:     clonePtr(p.Mode),
	}
}

func restartToAPI(p *structs.RestartPolicy) *api.RestartPolicy {
	if p == nil {
		return nil
	}
	return &api.RestartPolicy{
		Attempts: clonePtr(p.Attempts),
		Interval: clonePtr(p.Interval),
		Delay:    clonePtr(p.Delay),
		Mode:     clonePtr(p.Mode),
	}
}

func taskFromAPI(t *api.Task) *structs.Task {
	if t == nil {
		return nil
	}
	out := &structs.Task{
		Name:        t.Name,
		Driver:      t.Driver,
		Config:      copyConfig(t.Config),
		Leader:      t.Leader,
		KillTimeout: deref(t.KillTimeout),
		KillSignal:  t.KillSignal,
	}
	if t.Lifecycle != nil {
		out.Lifecycle = &structs.TaskLifecycle{Hook: t.Lifecycle.Hook, Sidecar: t.Lifecycle.Sidecar}
	}
	if t.Schedule != nil {
		out.Schedule = &schedule.Schedule{}
		if c := t.Schedule.Cron; c != nil {
			out.Schedule.Cron = &schedule.Cron{Start: c.Start, End: c.End, Timezone: c.Timezone}
		}
	}
	if t.VolumeMounts != nil {
		out.VolumeMounts = make([]*structs.VolumeMount, len(t.VolumeMounts))
		for i, m := range t.VolumeMounts {
			if m == nil {
				continue
			}
			out.VolumeMounts[i] = &structs.VolumeMount{
				Volume:      deref(m.Volume),
				Destination: deref(m.Destination),
				ReadOnly:    deref(m.ReadOnly),
			}
		}
	}
	return out
}

func taskToAPI(t *structs.Task) *api.Task {
	if t == nil {
		return nil
	}
	out := &api.Task{
		Name:       t.Name,
		Driver:     t.Driver,
		Config:     copyConfig(t.Config),
		Leader:     t.Leader,
		KillSignal: t.KillSignal,
	}
	if t.KillTimeout != 0 {
		out.KillTimeout = ptr(t.KillTimeout)
	}
	if t.Lifecycle != nil {
		out.Lifecycle = &api.TaskLifecycle{Hook: t.Lifecycle.Hook, Sidecar: t.Lifecycle.Sidecar}
	}
	if t.Schedule != nil {
		out.Schedule = &api.TaskSchedule{}
		if c := t.Schedule.Cron; c != nil {
			out.Schedule.Cron = &api.TaskScheduleCron{Start: c.Start, End: c.End, Timezone: c.Timezone}
		}
	}
	if t.VolumeMounts != nil {
		out.VolumeMounts = make([]*api.VolumeMount, len(t.VolumeMounts))
		for i, m := range t.VolumeMounts {
			if m == nil {
				continue
			}
			out.VolumeMounts[i] = &api.VolumeMount{
				Volume:      ptr(m.Volume),
				Destination: ptr(m.Destination),
				ReadOnly:    ptr(m.ReadOnly),
			}
		}
	}
	return out
}

// copyConfig deep-copies a JSON-shaped task config.
func copyConfig(in map[string]any) map[string]any {
	if in == nil {
		return nil
	}
	return copyValue(in).(map[string]any)
}

// copyValue deep-copies maps and slices, keeping nil ones nil.
func copyValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = copyValue(e)
		}
		return out
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copyValue(e)
		}
		return out
	case []string:
		if x == nil {
			return x
		}
		return append([]string{}, x...)
	case []map[string]any:
		if x == nil {
			return x
		}
		out := make([]map[string]any, len(x))
		for i, e := range x {
			out[i] = copyConfig(e)
		}
		return out
	default:
		return v
	}
}

func ptr[T any](v T) *T { return &v }

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// optional is nil for the zero string, so an unset domain field stays
// absent in the API form.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
