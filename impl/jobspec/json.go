package jobspec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/nomad/api"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
)

// ParseJSON reads a job in the JSON shape of Nomad's HTTP API, either the
// register body {"Job": {...}} or a bare job object, as `nomad job run
// -json` and PUT /v1/jobs take. It decodes into the official
// github.com/hashicorp/nomad/api types, so fields of the API outside the
// subset are type-checked and then dropped, and unknown fields are ignored
// (DATA-1); durations are integer nanoseconds. Values are not validated
// here: the API validates at registration. Absent Name defaults to the ID
// and absent Count to 1, as the API client does; then the job is
// canonicalized. JSON never yields warnings.
func ParseJSON(filename string, src []byte) (*structs.Job, []Warning, error) {
	src = trimBOM(src)
	fail := func(rng *hcl.Range, summary, detail string) (*structs.Job, []Warning, error) {
		return nil, nil, &Error{Filename: filename, Diagnostics: hcl.Diagnostics{{
			Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng,
		}}}
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(src, &probe); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field == "" {
			return fail(byteRange(filename, src, firstByte(src)), "Invalid JSON", `A JSON jobspec must be an object: {"Job": {...}} or a bare job.`)
		}
		return fail(byteRange(filename, src, errOffset(err)), "Invalid JSON", err.Error())
	}
	if probe == nil { // the literal null
		return fail(byteRange(filename, src, firstByte(src)), "Invalid JSON", `A JSON jobspec must be an object: {"Job": {...}} or a bare job.`)
	}
	var in *api.Job
	if wrapped(probe) {
		var req struct{ Job *api.Job }
		if err := json.Unmarshal(src, &req); err != nil {
			return fail(byteRange(filename, src, errOffset(err)), "Invalid JSON", err.Error())
		}
		if req.Job == nil {
			return fail(nil, "Missing job", `The "Job" field is null.`)
		}
		in = req.Job
	} else {
		in = &api.Job{}
		if err := json.Unmarshal(src, in); err != nil {
			return fail(byteRange(filename, src, errOffset(err)), "Invalid JSON", err.Error())
		}
	}
	job, err := fromAPI(in)
	if err != nil {
		return fail(nil, "Invalid job", err.Error())
	}
	job.Canonicalize()
	return job, nil, nil
}

// wrapped reports whether the object is a register body: it has a "Job"
// key, matched case-insensitively as encoding/json matches field names.
// (A bare job has no such field.)
func wrapped(probe map[string]json.RawMessage) bool {
	for k := range probe {
		if strings.EqualFold(k, "Job") {
			return true
		}
	}
	return false
}

// errOffset is where an encoding/json error is, or -1. encoding/json
// reports the offset after the byte (or value) at fault: a syntax error
// points at the offending byte, the end of input past its last byte, a
// type error at the last byte of the value.
func errOffset(err error) int64 {
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntaxErr):
		if strings.HasPrefix(syntaxErr.Error(), "unexpected end of JSON input") {
			return syntaxErr.Offset
		}
		return max(syntaxErr.Offset-1, 0)
	case errors.As(err, &typeErr):
		return max(typeErr.Offset-1, 0)
	}
	return -1
}

func firstByte(src []byte) int64 {
	return int64(len(src) - len(bytes.TrimLeft(src, " \t\r\n")))
}

// jsonRange is a one-character range at a byte offset (clamped to the
// input), nil when the offset is unknown.
func byteRange(filename string, src []byte, off int64) *hcl.Range {
	if off < 0 {
		return nil
	}
	if off > int64(len(src)) {
		off = int64(len(src))
	}
	pos := hcl.Pos{Line: 1, Column: 1, Byte: int(off)}
	for _, c := range src[:off] {
		if c == '\n' {
			pos.Line, pos.Column = pos.Line+1, 1
		} else if c&0xC0 != 0x80 { // count runes, not continuation bytes
			pos.Column++
		}
	}
	end := pos
	end.Column, end.Byte = end.Column+1, end.Byte+1
	return &hcl.Range{Filename: filename, Start: pos, End: end}
}

// fromAPI converts the API job to the domain job. Null entries in lists
// and maps are errors: the API has no meaning for them.
func fromAPI(in *api.Job) (*structs.Job, error) {
	job := &structs.Job{
		ID:        deref(in.ID),
		Namespace: deref(in.Namespace),
		Type:      deref(in.Type),
	}
	job.Name = job.ID
	if in.Name != nil {
		job.Name = *in.Name
	}
	if len(in.Meta) > 0 {
		job.Meta = maps.Clone(in.Meta)
	}
	if p := in.ParameterizedJob; p != nil {
		job.ParameterizedJob = &structs.ParameterizedJobConfig{Payload: p.Payload,
			MetaRequired: slices.Clone(p.MetaRequired), MetaOptional: slices.Clone(p.MetaOptional)}
	}
	for i, g := range in.TaskGroups {
		path := fmt.Sprintf("TaskGroups[%d]", i)
		if g == nil {
			return nil, fmt.Errorf("%s is null.", path)
		}
		tg, err := groupFromAPI(g, path)
		if err != nil {
			return nil, err
		}
		job.TaskGroups = append(job.TaskGroups, tg)
	}
	return job, nil
}

func groupFromAPI(g *api.TaskGroup, path string) (*structs.TaskGroup, error) {
	tg := &structs.TaskGroup{Name: deref(g.Name), Count: 1}
	if g.Count != nil {
		tg.Count = *g.Count
	}
	if p := g.RestartPolicy; p != nil {
		tg.RestartPolicy = (&structs.RestartPolicy{
			Attempts: p.Attempts, Interval: p.Interval, Delay: p.Delay, Mode: p.Mode,
		}).Copy()
	}
	aliases := make([]string, 0, len(g.Volumes))
	for alias := range g.Volumes {
		aliases = append(aliases, alias)
	}
	sort.Strings(aliases)
	for _, alias := range aliases {
		v := g.Volumes[alias]
		if v == nil {
			return nil, fmt.Errorf("%s.Volumes[%q] is null.", path, alias)
		}
		if tg.Volumes == nil {
			tg.Volumes = map[string]*structs.VolumeRequest{}
		}
		name := v.Name
		if name == "" {
			name = alias
		}
		tg.Volumes[alias] = &structs.VolumeRequest{Name: name, Type: v.Type, Source: v.Source, ReadOnly: v.ReadOnly}
	}
	for i, t := range g.Tasks {
		tpath := fmt.Sprintf("%s.Tasks[%d]", path, i)
		if t == nil {
			return nil, fmt.Errorf("%s is null.", tpath)
		}
		task, err := taskFromAPI(t, tpath)
		if err != nil {
			return nil, err
		}
		tg.Tasks = append(tg.Tasks, task)
	}
	return tg, nil
}

func taskFromAPI(t *api.Task, path string) (*structs.Task, error) {
	task := &structs.Task{
		Name:        t.Name,
		Driver:      t.Driver,
		Config:      t.Config,
		Leader:      t.Leader,
		KillTimeout: deref(t.KillTimeout),
		KillSignal:  t.KillSignal,
	}
	if l := t.Lifecycle; l != nil {
		task.Lifecycle = &structs.TaskLifecycle{Hook: l.Hook, Sidecar: l.Sidecar}
	}
	if s := t.Schedule; s != nil {
		task.Schedule = &schedule.Schedule{}
		if c := s.Cron; c != nil {
			task.Schedule.Cron = &schedule.Cron{Start: c.Start, End: c.End, Timezone: c.Timezone}
		}
	}
	for i, m := range t.VolumeMounts {
		if m == nil {
			return nil, fmt.Errorf("%s.VolumeMounts[%d] is null.", path, i)
		}
		task.VolumeMounts = append(task.VolumeMounts, &structs.VolumeMount{
			Volume: deref(m.Volume), Destination: deref(m.Destination), ReadOnly: deref(m.ReadOnly),
		})
	}
	return task, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
