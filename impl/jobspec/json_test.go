package jobspec

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
)

const minimalJSONJob = `{"ID":"j","TaskGroups":[{"Name":"g","Tasks":[{"Name":"t","Driver":"mock_driver"}]}]}`

// minimalJob is what minimalJSONJob and taskSrc() parse to.
func minimalJob(mod func(*structs.Job)) *structs.Job {
	job := &structs.Job{ID: "j", Name: "j", Namespace: "default", Type: "service",
		TaskGroups: []*structs.TaskGroup{{
			Name: "g", Count: 1, RestartPolicy: policy(2, 30*time.Minute, 15*time.Second, "fail"),
			Tasks: []*structs.Task{mainTask(nil)},
		}}}
	if mod != nil {
		mod(job)
	}
	return job
}

// DATA-1: the API's JSON, bare or wrapped, unknown fields ignored.
func TestParseJSON(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want *structs.Job
	}{
		{"bare", minimalJSONJob, minimalJob(nil)},
		{"register body", `{"Job":` + minimalJSONJob + `}`, minimalJob(nil)},
		{"register body, any case", `{"job":` + minimalJSONJob + `}`, minimalJob(nil)},
		{"byte order mark and blank space", "\xef\xbb\xbf \n" + minimalJSONJob + "\n", minimalJob(nil)},
		{"unknown fields", `{"Job":{"ID":"j","Frobs":[1],"Priority":50,"TaskGroups":[{"Name":"g","EphemeralDisk":{"SizeMB":300},
			"Tasks":[{"Name":"t","Driver":"mock_driver","Resources":{"CPU":100},"NotAField":null}]}]},"EnforceIndex":true}`,
			minimalJob(nil)},
		{"job fields", `{"ID":"j","Name":"Jay","Namespace":"prod","Type":"batch"}`,
			&structs.Job{ID: "j", Name: "Jay", Namespace: "prod", Type: "batch"}},
		{"explicit empty name", `{"ID":"j","Name":""}`,
			&structs.Job{ID: "j", Name: "", Namespace: "default", Type: "service"}},
		{"count and partial restart", `{"ID":"j","Type":"batch","TaskGroups":[{"Name":"g","Count":0,
			"RestartPolicy":{"Attempts":7,"Mode":"delay","RenderTemplates":true}}]}`,
			&structs.Job{ID: "j", Name: "j", Namespace: "default", Type: "batch", TaskGroups: []*structs.TaskGroup{{
				Name: "g", Count: 0, RestartPolicy: policy(7, 24*time.Hour, 15*time.Second, "delay")}}}},
		{"volumes", `{"ID":"j","TaskGroups":[{"Name":"g","Volumes":{
			"data":{"Name":"data","Type":"csi","Source":"v1","ReadOnly":true,"AccessMode":"single-node-writer"},
			"other":{"Type":"host","Source":"h"}}}]}`,
			&structs.Job{ID: "j", Name: "j", Namespace: "default", Type: "service", TaskGroups: []*structs.TaskGroup{{
				Name: "g", Count: 1, RestartPolicy: policy(2, 30*time.Minute, 15*time.Second, "fail"),
				Volumes: map[string]*structs.VolumeRequest{
					"data":  {Name: "data", Type: "csi", Source: "v1", ReadOnly: true},
					"other": {Name: "other", Type: "host", Source: "h"},
				}}}}},
		{"task fields", `{"ID":"j","TaskGroups":[{"Name":"g","Tasks":[{"Name":"t","Driver":"mock_driver",
			"Leader":true,"KillTimeout":2000000000,"KillSignal":"SIGTERM",
			"Lifecycle":{"Hook":"prestart","Sidecar":true},
			"Config":{"n":1,"l":["a",{"b":false}],"z":null},
			"Schedule":{"Cron":{"Start":"0 9 * * * *","End":"0 17","Timezone":"UTC"}},
			"VolumeMounts":[{"Volume":"data","Destination":"/d","ReadOnly":true,"PropagationMode":"private"}]}]}]}`,
			minimalJob(func(j *structs.Job) {
				j.TaskGroups[0].Tasks[0] = mainTask(func(t *structs.Task) {
					t.Leader, t.KillTimeout, t.KillSignal = true, 2*time.Second, "SIGTERM"
					t.Lifecycle = &structs.TaskLifecycle{Hook: "prestart", Sidecar: true}
					t.Config = map[string]any{"n": float64(1), "l": []any{"a", map[string]any{"b": false}}, "z": nil}
					t.Schedule = &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 17", Timezone: "UTC"}}
					t.VolumeMounts = []*structs.VolumeMount{{Volume: "data", Destination: "/d", ReadOnly: true}}
				})
			})},
		// SCHED-1: a schedule without cron counts as set.
		{"schedule without cron", `{"ID":"j","TaskGroups":[{"Name":"g","Tasks":[{"Name":"t","Driver":"mock_driver","Schedule":{}}]}]}`,
			minimalJob(func(j *structs.Job) { j.TaskGroups[0].Tasks[0].Schedule = &schedule.Schedule{} })},
		{"values are not validated", `{"ID":"","Type":"nonsense","TaskGroups":[{"Tasks":[{"Lifecycle":{"Hook":"whenever"}}]}]}`,
			&structs.Job{Namespace: "default", Type: "nonsense", TaskGroups: []*structs.TaskGroup{{
				Count: 1, RestartPolicy: policy(2, 30*time.Minute, 15*time.Second, "fail"),
				Tasks: []*structs.Task{{KillTimeout: 5 * time.Second, KillSignal: "SIGINT",
					Lifecycle: &structs.TaskLifecycle{Hook: "whenever"}}}}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			job, warns, err := ParseJSON("job.json", []byte(tc.src))
			must.NoError(t, err)
			must.Nil(t, warns)
			if diff := cmp.Diff(tc.want, job); diff != "" {
				t.Fatalf("ParseJSON (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseJSONErrors(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want string
	}{
		{"empty", "", `job.json:1,1-2: Invalid JSON; unexpected end of JSON input`},
		{"truncated", "{\n  \"ID\": \"j\",\n", `job.json:3,1-2: Invalid JSON; unexpected end of JSON input`},
		{"bad byte", "{\n  \"ID\": }", `job.json:2,9-10: Invalid JSON; invalid character '}' looking for beginning of value`},
		{"multi-byte characters before", "{\"Name\": \"żółw\", x}", `job.json:1,18-19: Invalid JSON; invalid character 'x' looking for beginning of object key string`},
		{"trailing data", minimalJSONJob + " {}", `job.json:1,86-87: Invalid JSON; invalid character '{' after top-level value`},
		{"array", "  [1]", `job.json:1,3-4: Invalid JSON; A JSON jobspec must be an object: {"Job": {...}} or a bare job.`},
		{"string", `"job"`, `job.json:1,1-2: Invalid JSON; A JSON jobspec must be an object: {"Job": {...}} or a bare job.`},
		{"null", "null", `job.json:1,1-2: Invalid JSON; A JSON jobspec must be an object: {"Job": {...}} or a bare job.`},
		{"null job", `{"Job": null}`, `job.json: Missing job; The "Job" field is null.`},
		{"wrong type", "{\"Job\": {\"ID\": \"j\",\n  \"TaskGroups\": [{\"Tasks\": [{\"KillTimeout\": \"5s\"}]}]}}",
			`job.json:2,48-49: Invalid JSON; json: cannot unmarshal string into Go struct field Task.Job.TaskGroups.Tasks.KillTimeout of type time.Duration`},
		{"wrong type, bare", `{"ID": 7}`,
			`job.json:1,8-9: Invalid JSON; json: cannot unmarshal number into Go struct field Job.ID of type string`},
		{"null group", `{"ID":"j","TaskGroups":[null]}`, `job.json: Invalid job; TaskGroups[0] is null.`},
		{"null task", `{"ID":"j","TaskGroups":[{"Name":"g","Tasks":[{"Name":"a"},null]}]}`,
			`job.json: Invalid job; TaskGroups[0].Tasks[1] is null.`},
		{"null volume", `{"ID":"j","TaskGroups":[{"Name":"g","Volumes":{"b":{"Source":"s"},"a":null}}]}`,
			`job.json: Invalid job; TaskGroups[0].Volumes["a"] is null.`},
		{"null mount", `{"ID":"j","TaskGroups":[{"Name":"g","Tasks":[{"Name":"a","VolumeMounts":[null]}]}]}`,
			`job.json: Invalid job; TaskGroups[0].Tasks[0].VolumeMounts[0] is null.`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			job, warns, err := ParseJSON("job.json", []byte(tc.src))
			must.Nil(t, job)
			must.Nil(t, warns)
			must.EqError(t, err, tc.want)
		})
	}
}
