package apiconv

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// TestJobFromAPINormalisation pins where API → domain is not one-to-one.
func TestJobFromAPINormalisation(t *testing.T) {
	zero := time.Duration(0)
	in := &api.Job{
		ID: new("web"),
		TaskGroups: []*api.TaskGroup{{
			Name: new("g"), // Count absent: Nomad's default 1
			Tasks: []*api.Task{{
				Name:         "t",
				KillTimeout:  &zero,
				VolumeMounts: []*api.VolumeMount{{}, nil},
				Schedule:     &api.TaskSchedule{},
			}},
		}},
	}
	want := &structs.Job{
		ID: "web",
		TaskGroups: []*structs.TaskGroup{{
			Name: "g", Count: DefaultGroupCount,
			Tasks: []*structs.Task{{
				Name:         "t",
				VolumeMounts: []*structs.VolumeMount{{}, nil},
				Schedule:     &schedule.Schedule{}, // null Cron still counts as set (SCHED-1)
			}},
		}},
	}
	got := JobFromAPI(in)
	must.Eq(t, "", cmp.Diff(want, got))

	back := JobToAPI(got)
	must.Nil(t, back.Name)
	must.Nil(t, back.Namespace)
	must.Nil(t, back.Type)
	must.Nil(t, back.TaskGroups[0].Tasks[0].KillTimeout) // zero is absent
	must.EqOp(t, 1, *back.TaskGroups[0].Count)
	must.NotNil(t, back.TaskGroups[0].Tasks[0].Schedule)
	must.Nil(t, back.TaskGroups[0].Tasks[0].Schedule.Cron)

	must.Nil(t, JobFromAPI(nil))
	must.Nil(t, JobToAPI(nil))
	must.Nil(t, AllocToAPI(nil))
	must.Nil(t, AllocFromAPI(nil))
	must.Nil(t, StubToAPI(nil))
	must.Nil(t, StubFromAPI(nil))
	must.Nil(t, (*Allocation)(nil).Domain())
	must.Nil(t, (*AllocationListStub)(nil).Domain())
	must.Nil(t, (*TaskState)(nil).Domain())
	must.Nil(t, TaskStateFromAPI(nil))
	must.Nil(t, TaskEventToAPI(nil))
	must.Nil(t, TaskEventFromAPI(nil))
}

// TestJobJSONDecode decodes a job the way the agent receives it: API JSON
// with durations in integer ns and unknown fields ignored (DATA-1).
func TestJobJSONDecode(t *testing.T) {
	body := `{"ID":"web","Type":"batch","Datacenters":["dc1"],"Unknown":{"x":1},
	  "TaskGroups":[{"Name":"g","Count":2,
	    "RestartPolicy":{"Attempts":0,"Interval":300000000000,"Mode":"fail"},
	    "Volumes":{"data":{"Name":"vol","Type":"csi","Source":"src","ReadOnly":true,"AccessMode":"x"}},
	    "Tasks":[{"Name":"t","Driver":"mock_driver","Config":{"run_for":"10s","args":["a",1]},
	      "KillTimeout":7000000000,"KillSignal":"SIGTERM","Leader":true,
	      "Lifecycle":{"Hook":"prestart","Sidecar":true},
	      "Schedule":{"Cron":{"Start":"0 9 * * * *","End":"0 17","Timezone":"UTC"}},
	      "VolumeMounts":[{"Volume":"data","Destination":"/d","ReadOnly":false,"PropagationMode":"private"}]}]}]}`
	var j api.Job
	must.NoError(t, json.Unmarshal([]byte(body), &j))
	got := JobFromAPI(&j)
	want := &structs.Job{
		ID: "web", Type: "batch",
		TaskGroups: []*structs.TaskGroup{{
			Name: "g", Count: 2,
			RestartPolicy: &structs.RestartPolicy{
				Attempts: new(0), Interval: new(5 * time.Minute), Mode: new("fail"),
			},
			Volumes: map[string]*structs.VolumeRequest{
				"data": {Name: "vol", Type: "csi", Source: "src", ReadOnly: true},
			},
			Tasks: []*structs.Task{{
				Name: "t", Driver: "mock_driver",
				Config:      map[string]any{"run_for": "10s", "args": []any{"a", float64(1)}},
				KillTimeout: 7 * time.Second, KillSignal: "SIGTERM", Leader: true,
				Lifecycle: &structs.TaskLifecycle{Hook: "prestart", Sidecar: true},
				Schedule: &schedule.Schedule{Cron: &schedule.Cron{
					Start: "0 9 * * * *", End: "0 17", Timezone: "UTC"}},
				VolumeMounts: []*structs.VolumeMount{{Volume: "data", Destination: "/d"}},
			}},
		}},
	}
	must.Eq(t, "", cmp.Diff(want, got))
}

// TestAllocJSONShape checks the served JSON against DATA-1: TaskEvent.Time
// and durations are integer ns, TaskState times RFC 3339 with the zero
// time as "0001-01-01T00:00:00Z", and Paused is present (DATA-6).
func TestAllocJSONShape(t *testing.T) {
	started := time.Date(2024, 3, 10, 7, 30, 0, 5, time.UTC)
	a := &structs.Allocation{
		ID: "a1", JobID: "web", ClientStatus: "running",
		Job: &structs.Job{ID: "web", TaskGroups: []*structs.TaskGroup{{
			Name:          "g",
			RestartPolicy: structs.NewRestartPolicy(2, 30*time.Minute, 15*time.Second, "fail"),
		}}},
		TaskStates: map[string]*structs.TaskState{"t": {
			State: "running", StartedAt: started, Paused: structs.TaskScheduleStateForcePause,
			Events: []*structs.TaskEvent{{Type: "Killing", Time: 1700000000123456789, KillTimeout: 5 * time.Second}},
		}},
	}
	b, err := json.Marshal(AllocToAPI(a))
	must.NoError(t, err)
	s := string(b)
	for _, want := range []string{
		`"Time":1700000000123456789`,
		`"KillTimeout":5000000000`,
		`"StartedAt":"2024-03-10T07:30:00.000000005Z"`,
		`"FinishedAt":"0001-01-01T00:00:00Z"`,
		`"Paused":"force_pause"`,
		`"Interval":1800000000000`,
		`"Delay":15000000000`,
		`"AllocModifyIndex":0`,
	} {
		must.True(t, strings.Contains(s, want), must.Sprintf("%s not in %s", want, s))
	}
	must.EqOp(t, 1, strings.Count(s, `"TaskStates"`)) // the wire field shadows the embedded one

	b, err = json.Marshal([]*AllocationListStub{StubToAPI(a)})
	must.NoError(t, err)
	s = string(b)
	must.StrNotContains(t, s, `"Job":`)
	must.StrContains(t, s, `"NetworkStatus":null`)
	must.StrContains(t, s, `"Paused":"force_pause"`)
}
