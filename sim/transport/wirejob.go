package transport

import (
	"reflect"
	"unicode/utf8"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
)

var (
	jobType            = reflect.TypeFor[structs.Job]()
	taskGroupSliceType = reflect.TypeFor[[]*structs.TaskGroup]()
	taskSliceType      = reflect.TypeFor[[]*structs.Task]()
	mountSliceType     = reflect.TypeFor[[]*structs.VolumeMount]()
	stringSliceType    = reflect.TypeFor[[]string]()
)

// jobDepth is how deep below a Job its fixed fields reach (a task's
// Config is entered at depth+4); a job copied nearer than this to
// maxWireDepth goes through the reflective copier's rules by JSON.
const jobDepth = 8

// copyJob is the copier of structs.Job and everything below it without
// reflection: every pull reply carries its allocs' jobs. It gives what the
// field-by-field copier gives (TestJobCopierMatchesReflective, which fills
// every field of every type of the job by reflection, so a field added to
// one of them and not here fails it): each JSON field copied by name, an
// omitempty field left zero when empty, slices at grownCap's capacity,
// Config as genericCopy copies it. A job with anything JSON does not keep
// as it is (invalid UTF-8, a Config value genericCopy declines) goes
// through JSON as a whole, which gives the same value the reflective
// copier's field-by-field JSON fallbacks give.
func copyJob(dst, src reflect.Value, depth int) error {
	s, d := addrOf[structs.Job](src), dst.Addr().Interface().(*structs.Job)
	if depth+jobDepth >= maxWireDepth || !cloneJob(d, s, depth) {
		*d = structs.Job{}
		return jsonCopy(dst, src, depth)
	}
	return nil
}

// validUTF8 reports whether every string is valid UTF-8.
func validUTF8(ss ...string) bool {
	for _, s := range ss {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

func cloneJob(d, s *structs.Job, depth int) bool {
	if !validUTF8(s.ID, s.Name, s.Namespace, s.Type, s.ParentID) {
		return false
	}
	*d = structs.Job{ID: s.ID, Name: s.Name, Namespace: s.Namespace, Type: s.Type, ParentID: s.ParentID, Dispatched: s.Dispatched}
	var ok bool
	if d.TaskGroups, ok = clonePointers(s.TaskGroups, taskGroupSliceType, depth, cloneTaskGroup); !ok {
		return false
	}
	if len(s.Meta) > 0 { // omitempty
		m, ok := cloneStringMap(s.Meta)
		if !ok {
			return false
		}
		d.Meta = m
	}
	if p := s.ParameterizedJob; p != nil {
		if !utf8.ValidString(p.Payload) {
			return false
		}
		c := &structs.ParameterizedJobConfig{Payload: p.Payload}
		var ok1, ok2 bool
		c.MetaRequired, ok1 = cloneStrings(p.MetaRequired)
		c.MetaOptional, ok2 = cloneStrings(p.MetaOptional)
		if !ok1 || !ok2 {
			return false
		}
		d.ParameterizedJob = c
	}
	return true
}

// clonePointers copies a slice of pointers to structs as JSON does: nil
// stays nil, a nil element stays nil, each other element is a fresh
// value cloned at depth+2 (the slice is entered at depth, its pointers at
// depth+1), the slice at grownCap's capacity.
func clonePointers[T any](in []*T, t reflect.Type, depth int, clone func(d, s *T, depth int) bool) ([]*T, bool) {
	if in == nil {
		return nil, true
	}
	out := make([]*T, len(in), grownCap(t, len(in)))
	for i, s := range in {
		if s == nil {
			continue
		}
		out[i] = new(T)
		if !clone(out[i], s, depth+2) {
			return nil, false
		}
	}
	return out, true
}

// cloneStrings copies a []string as JSON does: nil stays nil, empty is
// a fresh empty slice.
func cloneStrings(in []string) ([]string, bool) {
	if in == nil {
		return nil, true
	}
	out := make([]string, len(in), grownCap(stringSliceType, len(in)))
	for i, s := range in {
		if !utf8.ValidString(s) {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

func cloneTaskGroup(d, s *structs.TaskGroup, depth int) bool {
	if !utf8.ValidString(s.Name) {
		return false
	}
	*d = structs.TaskGroup{Name: s.Name, Count: s.Count}
	if rp := s.RestartPolicy; rp != nil {
		c := &structs.RestartPolicy{}
		if rp.Attempts != nil {
			c.Attempts = new(*rp.Attempts)
		}
		if rp.Interval != nil {
			c.Interval = new(*rp.Interval)
		}
		if rp.Delay != nil {
			c.Delay = new(*rp.Delay)
		}
		if rp.Mode != nil {
			if !utf8.ValidString(*rp.Mode) {
				return false
			}
			c.Mode = new(*rp.Mode)
		}
		d.RestartPolicy = c
	}
	var ok bool
	if d.Tasks, ok = clonePointers(s.Tasks, taskSliceType, depth, cloneTask); !ok {
		return false
	}
	if s.Volumes != nil {
		d.Volumes = make(map[string]*structs.VolumeRequest, len(s.Volumes))
		for k, v := range s.Volumes {
			if !utf8.ValidString(k) {
				return false
			}
			if v == nil {
				d.Volumes[k] = nil
				continue
			}
			if !validUTF8(v.Name, v.Type, v.Source) {
				return false
			}
			d.Volumes[k] = &structs.VolumeRequest{Name: v.Name, Type: v.Type, Source: v.Source, ReadOnly: v.ReadOnly}
		}
	}
	return true
}

func cloneTask(d, s *structs.Task, depth int) bool {
	if !validUTF8(s.Name, s.Driver, s.KillSignal) {
		return false
	}
	*d = structs.Task{Name: s.Name, Driver: s.Driver, Leader: s.Leader, KillTimeout: s.KillTimeout, KillSignal: s.KillSignal}
	if s.Config != nil {
		c, ok := genericCopy(s.Config, depth)
		if !ok {
			return false
		}
		d.Config = c.(map[string]any)
	}
	if l := s.Lifecycle; l != nil {
		if !utf8.ValidString(l.Hook) {
			return false
		}
		d.Lifecycle = &structs.TaskLifecycle{Hook: l.Hook, Sidecar: l.Sidecar}
	}
	if sc := s.Schedule; sc != nil {
		d.Schedule = &schedule.Schedule{}
		if c := sc.Cron; c != nil {
			if !validUTF8(c.Start, c.End, c.Timezone) {
				return false
			}
			d.Schedule.Cron = &schedule.Cron{Start: c.Start, End: c.End, Timezone: c.Timezone}
		}
	}
	if s.VolumeMounts != nil {
		d.VolumeMounts = make([]*structs.VolumeMount, len(s.VolumeMounts), grownCap(mountSliceType, len(s.VolumeMounts)))
		for i, m := range s.VolumeMounts {
			if m == nil {
				continue
			}
			if !validUTF8(m.Volume, m.Destination) {
				return false
			}
			d.VolumeMounts[i] = &structs.VolumeMount{Volume: m.Volume, Destination: m.Destination, ReadOnly: m.ReadOnly}
		}
	}
	return true
}
