package jobspec

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/structs"
)

// apiFromJob is the official API client's view of a domain job: what
// `nomad job run` would send for it.
func apiFromJob(job *structs.Job, nameAbsent bool, countAbsent map[string]bool) *api.Job {
	out := &api.Job{ID: ptr(job.ID), Namespace: ptr(job.Namespace), Type: ptr(job.Type)}
	if !nameAbsent {
		out.Name = ptr(job.Name)
	}
	out.Meta = job.Meta
	if p := job.ParameterizedJob; p != nil {
		out.ParameterizedJob = &api.ParameterizedJobConfig{Payload: p.Payload, MetaRequired: p.MetaRequired, MetaOptional: p.MetaOptional}
	}
	for _, tg := range job.TaskGroups {
		g := &api.TaskGroup{Name: ptr(tg.Name)}
		if !countAbsent[tg.Name] {
			g.Count = ptr(tg.Count)
		}
		if p := tg.RestartPolicy; p != nil {
			g.RestartPolicy = &api.RestartPolicy{Attempts: p.Attempts, Interval: p.Interval, Delay: p.Delay, Mode: p.Mode}
		}
		for alias, v := range tg.Volumes {
			if g.Volumes == nil {
				g.Volumes = map[string]*api.VolumeRequest{}
			}
			g.Volumes[alias] = &api.VolumeRequest{Name: v.Name, Type: v.Type, Source: v.Source, ReadOnly: v.ReadOnly}
		}
		for _, t := range tg.Tasks {
			at := &api.Task{Name: t.Name, Driver: t.Driver, Config: t.Config, Leader: t.Leader,
				KillTimeout: ptr(t.KillTimeout), KillSignal: t.KillSignal}
			if l := t.Lifecycle; l != nil {
				at.Lifecycle = &api.TaskLifecycle{Hook: l.Hook, Sidecar: l.Sidecar}
			}
			if s := t.Schedule; s != nil {
				at.Schedule = &api.TaskSchedule{}
				if c := s.Cron; c != nil {
					at.Schedule.Cron = &api.TaskScheduleCron{Start: c.Start, End: c.End, Timezone: c.Timezone}
				}
			}
			for _, m := range t.VolumeMounts {
				at.VolumeMounts = append(at.VolumeMounts, &api.VolumeMount{
					Volume: ptr(m.Volume), Destination: ptr(m.Destination), ReadOnly: ptr(m.ReadOnly)})
			}
			g.Tasks = append(g.Tasks, at)
		}
		out.TaskGroups = append(out.TaskGroups, g)
	}
	return out
}

// viaAPI marshals the job as the API client does (register body and bare
// job) and parses both back.
func viaAPI(t must.T, in *api.Job) (wrapped, bare *structs.Job) {
	t.Helper()
	body, err := json.Marshal(&api.JobRegisterRequest{Job: in})
	must.NoError(t, err)
	wrapped, _, err = ParseJSON("job.json", body)
	must.NoError(t, err, must.Sprint(string(body)))
	raw, err := json.Marshal(in)
	must.NoError(t, err)
	bare, _, err = ParseJSON("job.json", raw)
	must.NoError(t, err, must.Sprint(string(raw)))
	return wrapped, bare
}

// Every HCL fixture, sent through the official API types as JSON, parses
// to the same job.
func TestEquivalenceFixtures(t *testing.T) {
	for _, name := range fixtureNames(t) {
		t.Run(name, func(t *testing.T) {
			job, _, err := Parse(name, readFixture(t, name))
			must.NoError(t, err)
			wrapped, bare := viaAPI(t, apiFromJob(job, false, nil))
			if diff := cmp.Diff(job, wrapped); diff != "" {
				t.Fatalf("register body (-hcl +json):\n%s", diff)
			}
			if diff := cmp.Diff(job, bare); diff != "" {
				t.Fatalf("bare job (-hcl +json):\n%s", diff)
			}
		})
	}
}

// Absent fields mean the same in both formats: HCL without name, count,
// restart fields, kill_timeout, kill_signal equals API JSON with those
// fields null.
func TestEquivalenceDefaults(t *testing.T) {
	hclJob, _ := mustParseHCL(t, "job \"j\" {\n  type = \"batch\"\n"+
		"  group \"g\" {\n    restart { delay = \"1s\" }\n    task \"t\" { driver = \"d\" }\n  }\n}\n")
	in := &api.Job{ID: ptr("j"), Type: ptr("batch"), TaskGroups: []*api.TaskGroup{{
		Name:          ptr("g"),
		RestartPolicy: &api.RestartPolicy{Delay: ptr(hclJob.TaskGroups[0].RestartPolicy.GetDelay())},
		Tasks:         []*api.Task{{Name: "t", Driver: "d"}},
	}}}
	wrapped, bare := viaAPI(t, in)
	if diff := cmp.Diff(hclJob, wrapped); diff != "" {
		t.Fatalf("(-hcl +json):\n%s", diff)
	}
	must.Eq(t, wrapped, bare)
	must.Eq(t, 1, hclJob.TaskGroups[0].Count)
	must.Eq(t, "j", hclJob.Name)
}
