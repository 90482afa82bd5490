package agent_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/google/go-cmp/cmp"
	multierror "github.com/hashicorp/go-multierror"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// apiJob builds an official-client job: group "g" with the given tasks.
func apiJob(id string, tasks ...*api.Task) *api.Job {
	tg := api.NewTaskGroup("g", 1)
	tg.Tasks = tasks
	return &api.Job{ID: new(id), TaskGroups: []*api.TaskGroup{tg}}
}

// minimalGroups is the JSON of the smallest admitted task groups (one
// group, one task with a driver), for raw bodies about something else.
const minimalGroups = `"TaskGroups":[{"Name":"g","Tasks":[{"Name":"t","Driver":"mock_driver"}]}]`

func scheduledTask(name, start, end string) *api.Task {
	t := api.NewTask(name, "mock_driver")
	t.Schedule = &api.TaskSchedule{Cron: &api.TaskScheduleCron{Start: start, End: end, Timezone: "UTC"}}
	return t
}

// TestAPI4_RegisterEnt registers a scheduled job under ent with the
// official client: 200, the reply fields and the index header; the server
// got the canonicalized domain job (DATA-2..4).
func TestAPI4_RegisterEnt(t *testing.T) {
	r := newRig(t, agent.Config{Profile: schedule.ProfileEnt})
	job := apiJob("web", scheduledTask("app", "0 9 * * MON-FRI *", "0 17"))
	resp, wm, err := r.api.Jobs().Register(job, nil)
	must.NoError(t, err)
	must.EqOp(t, "eval-1", resp.EvalID)
	must.EqOp(t, uint64(7), resp.EvalCreateIndex)
	must.EqOp(t, uint64(7), resp.JobModifyIndex)
	must.EqOp(t, "", resp.Warnings)
	must.EqOp(t, uint64(7), wm.LastIndex)

	reg := r.server.Registered()
	must.SliceLen(t, 1, reg)
	want := &structs.Job{
		ID: "web", Namespace: "default", Type: "service",
		TaskGroups: []*structs.TaskGroup{{
			Name: "g", Count: 1,
			RestartPolicy: structs.NewRestartPolicy(2, 30*time.Minute, 15*time.Second, "fail"),
			Tasks: []*structs.Task{{
				Name: "app", Driver: "mock_driver", KillTimeout: 5 * time.Second, KillSignal: "SIGINT",
				Schedule: &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * MON-FRI *", End: "0 17", Timezone: "UTC"}},
			}},
		}},
	}
	must.Eq(t, "", cmp.Diff(want, reg[0]))
}

// TestAPI4_RegisterRaw checks the exact success body and headers.
func TestAPI4_RegisterRaw(t *testing.T) {
	r := newRig(t, agent.Config{})
	for _, method := range []string{http.MethodPut, http.MethodPost} {
		got := do(t, r.h, method, "/v1/jobs?region=global&namespace=prod", `{"Job":{"ID":"web","Unknown":1,`+minimalGroups+`}}`)
		mustSuccessHeaders(t, got, "7")
		must.EqOp(t, `{"EvalID":"eval-1","EvalCreateIndex":7,"JobModifyIndex":7,"Warnings":"","Index":7}`, got.Body)
		must.EqOp(t, "application/json", got.Header.Get("Content-Type"))
	}
	reg := r.server.Registered()
	must.EqOp(t, "prod", reg[0].Namespace) // the namespace parameter fills an absent namespace

	do(t, r.h, http.MethodPut, "/v1/jobs?namespace=prod", `{"Job":{"ID":"web","Namespace":"ops",`+minimalGroups+`}}`)
	must.EqOp(t, "ops", r.server.Registered()[2].Namespace)
}

// TestSCHED1_RegisterCERejected: ce rejects a job with task schedules with
// exactly one error, whatever the number of scheduled tasks, through the
// official client (API-4, SCHED-1).
func TestSCHED1_RegisterCERejected(t *testing.T) {
	r := newRig(t, agent.Config{Profile: schedule.ProfileCE})
	job := apiJob("web",
		scheduledTask("a", "0 9 * * * *", "0 17"),
		scheduledTask("b", "bad", "bad"),
		&api.Task{Name: "c", Driver: "mock_driver", Schedule: &api.TaskSchedule{}}, // null Cron counts as set
	)
	tg2 := api.NewTaskGroup("g2", 1)
	tg2.Tasks = []*api.Task{scheduledTask("d", "0 9 * * * *", "0 17")}
	job.TaskGroups = append(job.TaskGroups, tg2)
	_, _, err := r.api.Jobs().Register(job, nil)
	must.EqError(t, err, "Unexpected response code: 500 (1 error occurred:\n\t* task schedules requires Nomad Enterprise)")
	must.SliceEmpty(t, r.server.Registered())

	raw := do(t, r.h, http.MethodPut, "/v1/jobs",
		`{"Job":{"ID":"web","TaskGroups":[{"Name":"g","Tasks":[{"Name":"t","Driver":"mock_driver","Schedule":{"Cron":null}}]}]}}`)
	must.EqOp(t, http.StatusInternalServerError, raw.Status)
	must.EqOp(t, "1 error occurred:\n\t* task schedules requires Nomad Enterprise\n\n", raw.Body)
	must.EqOp(t, "text/plain; charset=utf-8", raw.Header.Get("Content-Type"))
	must.EqOp(t, "", raw.Header.Get("X-Nomad-Index"))

	// A job without schedules is fine under ce.
	_, _, err = r.api.Jobs().Register(apiJob("plain", api.NewTask("t", "mock_driver")), nil)
	must.NoError(t, err)
}

// TestAPI4_RegisterValidationEnt: every failure is reported, restart
// policy failures (DATA-3) and each failing task's first SCHED-2 error.
func TestAPI4_RegisterValidationEnt(t *testing.T) {
	r := newRig(t, agent.Config{})
	body := `{"Job":{"ID":"web","TaskGroups":[{"Name":"g",
	  "RestartPolicy":{"Attempts":3,"Interval":1000000000,"Delay":1000000000,"Mode":"never"},
	  "Tasks":[
	    {"Name":"a","Driver":"mock_driver","Schedule":{}},
	    {"Name":"b","Driver":"mock_driver","Schedule":{"Cron":{"Start":"0 9 * * *","End":"0"}}},
	    {"Name":"c","Driver":"mock_driver","Schedule":{"Cron":{"Start":"0 9 * * * *","End":"0 17"}}},
	    {"Name":"d","Driver":"mock_driver","Schedule":{"Cron":{"Start":"0 9 * * * *","End":"0/5 17"}}}]}]}}`
	got := do(t, r.h, http.MethodPost, "/v1/jobs", body)
	must.EqOp(t, http.StatusInternalServerError, got.Status)
	want := "6 errors occurred:\n" +
		"\t* Unsupported restart mode: \"never\"\n" +
		"\t* Interval can not be less than 5s (got 1s)\n" +
		"\t* Nomad can't restart the TaskGroup 3 times in an interval of 1s with a delay of 1s\n" +
		"\t* must specify cron block\n" +
		"\t* cron.start must contain 6 fields\n" +
		"\t* cron.end must not contain \"/,\"\n\n"
	must.EqOp(t, want, got.Body)
	must.SliceEmpty(t, r.server.Registered())
}

// TestAPI4_RegisterErrors covers the 400s and the 405 of /v1/jobs.
func TestAPI4_RegisterErrors(t *testing.T) {
	r := newRig(t, agent.Config{})
	cases := []struct {
		name, method, body string
		status             int
		want               string
	}{
		{"no job", http.MethodPut, `{}`, 400, "Job must be specified"},
		{"null job", http.MethodPut, `{"Job":null}`, 400, "Job must be specified"},
		{"empty body", http.MethodPost, ``, 400, "Job must be specified"},
		{"no ID", http.MethodPut, `{"Job":{"Name":"web"}}`, 400, "Job must have a valid ID"},
		{"empty ID", http.MethodPut, `{"Job":{"ID":""}}`, 400, "Job must have a valid ID"},
		{"malformed", http.MethodPut, `{"Job":`, 400, "Failed to decode body: unexpected EOF"},
		// The rest of these two is encoding/json's text.
		{"wrong type", http.MethodPut, `{"Job":{"ID":5}}`, 400,
			"Failed to decode body: json: cannot unmarshal number into Go struct field "},
		{"duration as string", http.MethodPut, `{"Job":{"ID":"w","TaskGroups":[{"Tasks":[{"KillTimeout":"5s"}]}]}}`, 400,
			"Failed to decode body: json: cannot unmarshal string into Go struct field "},
		{"GET", http.MethodGet, ``, 405, "Invalid method"},
		{"DELETE", http.MethodDelete, `{"Job":{"ID":"w"}}`, 405, "Invalid method"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := do(t, r.h, tc.method, "/v1/jobs", tc.body)
			must.EqOp(t, tc.status, got.Status)
			if strings.HasSuffix(tc.want, " ") {
				must.StrHasPrefix(t, tc.want, got.Body)
				return
			}
			must.EqOp(t, tc.want, got.Body)
		})
	}
	must.SliceEmpty(t, r.server.Registered())

	_, _, err := r.api.Jobs().Register(&api.Job{Name: new("noid")}, nil)
	must.EqError(t, err, "Unexpected response code: 400 (Job must have a valid ID)")
}

// TestAPI4_ServerRegisterError: a server that rejects with joined errors
// (possibly wrapped) gets a multierror list of them; any other error is a
// plain 500 with its message.
func TestAPI4_ServerRegisterError(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"wrapped join", fmt.Errorf("register job %q: %w", "web", errors.Join(
			errors.New("task schedules requires Nomad Enterprise"),
			errors.Join(errors.New("a"), errors.New("b")))),
			"3 errors occurred:\n\t* task schedules requires Nomad Enterprise\n\t* a\n\t* b\n\n"},
		{"go-multierror", multierror.Append(nil, errors.New("x")), "1 error occurred:\n\t* x\n\n"},
		{"plain", errors.New(`no node to place job "web" on`), `no node to place job "web" on`},
		{"wrapped plain", fmt.Errorf("register: %w", errors.New("boom")), "register: boom"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, agent.Config{})
			r.server.registerFn = func(*structs.Job) (string, uint64, uint64, error) { return "", 0, 0, tc.err }
			got := do(t, r.h, http.MethodPut, "/v1/jobs", `{"Job":{"ID":"web",`+minimalGroups+`}}`)
			must.EqOp(t, http.StatusInternalServerError, got.Status)
			must.EqOp(t, tc.want, got.Body)
		})
	}
}

// TestAPI4_IndexAtLeastOne: a server index of 0 is served as 1.
func TestAPI4_IndexAtLeastOne(t *testing.T) {
	r := newRig(t, agent.Config{})
	r.server.registerFn = func(*structs.Job) (string, uint64, uint64, error) { return "", 0, 0, nil }
	got := do(t, r.h, http.MethodPut, "/v1/jobs", `{"Job":{"ID":"web",`+minimalGroups+`}}`)
	mustSuccessHeaders(t, got, "1")
	must.EqOp(t, `{"EvalID":"","EvalCreateIndex":0,"JobModifyIndex":0,"Warnings":"","Index":0}`, got.Body)

	r.server.registerFn = func(*structs.Job) (string, uint64, uint64, error) { return "e", 5, 9, nil }
	got = do(t, r.h, http.MethodPut, "/v1/jobs", `{"Job":{"ID":"web",`+minimalGroups+`}}`)
	mustSuccessHeaders(t, got, "9")
	must.EqOp(t, `{"EvalID":"e","EvalCreateIndex":5,"JobModifyIndex":9,"Warnings":"","Index":9}`, got.Body)
}

func TestNewConfigErrors(t *testing.T) {
	_, err := agent.New(agent.Config{})
	must.EqError(t, err, "agent config: server is nil")
	_, err = agent.New(agent.Config{Server: newFakeServer(), Profile: "oss"})
	must.EqError(t, err, `agent config: unknown schedule profile "oss"`)
	h, err := agent.New(agent.Config{Server: newFakeServer(), Profile: schedule.ProfileCE})
	must.NoError(t, err)
	must.NotNil(t, h)
}
