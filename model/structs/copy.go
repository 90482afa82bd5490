package structs

import (
	"maps"
	"slices"
)

// Copy returns a deep copy of the job.
func (j *Job) Copy() *Job {
	if j == nil {
		return nil
	}
	out := *j
	if j.TaskGroups != nil {
		out.TaskGroups = make([]*TaskGroup, len(j.TaskGroups))
		for i, tg := range j.TaskGroups {
			out.TaskGroups[i] = tg.Copy()
		}
	}
	if j.Meta != nil {
		out.Meta = maps.Clone(j.Meta)
	}
	if p := j.ParameterizedJob; p != nil {
		out.ParameterizedJob = &ParameterizedJobConfig{Payload: p.Payload,
			MetaRequired: slices.Clone(p.MetaRequired), MetaOptional: slices.Clone(p.MetaOptional)}
	}
	return &out
}

// Copy returns a deep copy of the group.
func (tg *TaskGroup) Copy() *TaskGroup {
	if tg == nil {
		return nil
	}
	out := *tg
	out.RestartPolicy = tg.RestartPolicy.Copy()
	if tg.Tasks != nil {
		out.Tasks = make([]*Task, len(tg.Tasks))
		for i, t := range tg.Tasks {
			out.Tasks[i] = t.Copy()
		}
	}
	if tg.Volumes != nil {
		out.Volumes = make(map[string]*VolumeRequest, len(tg.Volumes))
		for k, v := range tg.Volumes {
			if v != nil {
				c := *v
				v = &c
			}
			out.Volumes[k] = v
		}
	}
	return &out
}

// Copy returns a deep copy of the task.
func (t *Task) Copy() *Task {
	if t == nil {
		return nil
	}
	out := *t
	if t.Config != nil {
		out.Config = copyValue(t.Config).(map[string]any)
	}
	if t.Lifecycle != nil {
		l := *t.Lifecycle
		out.Lifecycle = &l
	}
	if t.Schedule != nil {
		s := *t.Schedule
		if s.Cron != nil {
			c := *s.Cron
			s.Cron = &c
		}
		out.Schedule = &s
	}
	if t.VolumeMounts != nil {
		out.VolumeMounts = make([]*VolumeMount, len(t.VolumeMounts))
		for i, m := range t.VolumeMounts {
			if m != nil {
				c := *m
				m = &c
			}
			out.VolumeMounts[i] = m
		}
	}
	return &out
}

// copyValue deep-copies a JSON-shaped value (maps, slices, scalars).
func copyValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = copyValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copyValue(e)
		}
		return out
	case []string:
		return append([]string(nil), x...)
	default:
		return v
	}
}
