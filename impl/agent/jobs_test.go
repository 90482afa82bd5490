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

func cron(start, end string) *schedule.Schedule {
	return &schedule.Schedule{Cron: &schedule.Cron{Start: start, End: end}}
}

// messages splits a joined error into its messages.
func messages(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		out = append(out, e.Error())
	}
	return out
}

// TestValidateJob is the admission table of SCHED-1 and DATA-3.
func TestValidateJob(t *testing.T) {
	valid := structs.NewRestartPolicy(2, 30*time.Minute, 15*time.Second, "fail")
	// Groups and tasks get distinct names and a driver, so that only the
	// rules under test fail.
	group := func(name string, p *structs.RestartPolicy, tasks ...*structs.Task) *structs.TaskGroup {
		return &structs.TaskGroup{Name: name, RestartPolicy: p, Tasks: tasks}
	}
	task := func(name string, s *schedule.Schedule) *structs.Task {
		return &structs.Task{Name: name, Driver: "mock_driver", Schedule: s}
	}
	good := cron("0 9 * * * *", "0 17")
	cases := []struct {
		name    string
		job     *structs.Job
		profile schedule.Profile
		want    []string
	}{
		{"no schedules, ce", &structs.Job{TaskGroups: []*structs.TaskGroup{group("g", valid, task("t", nil))}}, schedule.ProfileCE, nil},
		{"valid schedule, ent", &structs.Job{TaskGroups: []*structs.TaskGroup{group("g", valid, task("t", good))}}, schedule.ProfileEnt, nil},
		{"ce once per job", &structs.Job{TaskGroups: []*structs.TaskGroup{
			group("g1", valid, task("t1", good), task("t2", &schedule.Schedule{})), group("g2", valid, task("t3", good)),
		}}, schedule.ProfileCE, []string{"task schedules requires Nomad Enterprise"}},
		{"ent first error per task", &structs.Job{TaskGroups: []*structs.TaskGroup{
			group("g1", valid, task("t1", &schedule.Schedule{}), task("t2", cron("a", "b")), task("t3", good)),
			group("g2", valid, task("t4", cron("0 9 * * * *", "0,5 1"))),
		}}, schedule.ProfileEnt, []string{"must specify cron block", "cron.start must contain 6 fields", `cron.end must not contain "/,"`}},
		{"restart failures then schedules, in group order", &structs.Job{TaskGroups: []*structs.TaskGroup{
			nil,
			group("g1", structs.NewRestartPolicy(0, time.Second, 0, "delay"), nil, task("t1", cron("0 9 * * * *", "0 17 *"))),
			group("g2", structs.NewRestartPolicy(1, time.Minute, time.Second, "fail"), task("t2", &schedule.Schedule{})),
		}}, schedule.ProfileCE, []string{
			`Restart policy "delay" with 0 attempts is ambiguous`,
			"Interval can not be less than 5s (got 1s)",
			"task schedules requires Nomad Enterprise",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.Eq(t, tc.want, messages(agent.ValidateJob(tc.job, tc.profile)))
		})
	}
	must.EqError(t, agent.ValidateJob(nil, schedule.ProfileEnt), "Job must be specified")
	must.True(t, errors.Is(agent.ValidateJob(&structs.Job{TaskGroups: []*structs.TaskGroup{group("g", valid, task("t", good))}},
		schedule.ProfileCE), schedule.ErrEnterpriseOnly))
}

// TestDecodeJobRegister: the decoder canonicalizes and applies the
// namespace parameter to a job without one.
func TestDecodeJobRegister(t *testing.T) {
	job, err := agent.DecodeJobRegister(nil, "")
	must.Nil(t, job)
	must.EqError(t, err, "Job must be specified")

	job, err = agent.DecodeJobRegister(stringsReader(`{"Job":{"ID":"b","Type":"batch","TaskGroups":[{"Name":"g","Tasks":[{"Name":"t"}]}]}}`), "ops")
	must.NoError(t, err)
	must.EqOp(t, "ops", job.Namespace)
	must.EqOp(t, 3, job.TaskGroups[0].RestartPolicy.GetAttempts()) // batch defaults (DATA-3)
	must.EqOp(t, 24*time.Hour, job.TaskGroups[0].RestartPolicy.GetInterval())
	must.EqOp(t, 5*time.Second, job.TaskGroups[0].Tasks[0].KillTimeout)
	must.EqOp(t, "SIGINT", job.TaskGroups[0].Tasks[0].KillSignal)
	must.EqOp(t, 1, job.TaskGroups[0].Count)

	job, err = agent.DecodeJobRegister(stringsReader(`{"Job":{"ID":"b"}}`), "")
	must.NoError(t, err)
	must.EqOp(t, "default", job.Namespace)
	must.EqOp(t, "service", job.Type)
}

// dispatchServer is a fakeServer that also dispatches: it records the
// request and answers res or err.
type dispatchServer struct {
	*fakeServer
	gotJob  string
	gotMeta map[string]string
	gotLen  int
	res     agent.DispatchResult
	err     error
}

func (s *dispatchServer) DispatchJob(parentID string, meta map[string]string, payload []byte) (agent.DispatchResult, error) {
	s.gotJob, s.gotMeta, s.gotLen = parentID, meta, len(payload)
	return s.res, s.err
}

// TestDispatchRoute: without a Dispatcher the path does not exist (404);
// with one, PUT and POST dispatch (the official client's Dispatch), other
// methods are 405, a bad body 400, an unknown job 404 and any other
// error a 500 with its message.
func TestDispatchRoute(t *testing.T) {
	plain, err := agent.New(agent.Config{Server: newFakeServer()})
	must.NoError(t, err)
	r := do(t, plain, http.MethodPost, "/v1/job/sweep/dispatch", `{}`)
	must.EqOp(t, http.StatusNotFound, r.Status)
	must.EqOp(t, "Resource not found", r.Body)

	srv := &dispatchServer{fakeServer: newFakeServer(), res: agent.DispatchResult{
		DispatchedJobID: "sweep/dispatch-1718355600-0a1b2c3d", EvalID: "ev", EvalCreateIndex: 12, JobCreateIndex: 12, Index: 12,
	}}
	h, err := agent.New(agent.Config{Server: srv})
	must.NoError(t, err)
	c, err := agent.NewAPIClient(h)
	must.NoError(t, err)
	resp, wm, err := c.Jobs().Dispatch("sweep", map[string]string{"shard": "1"}, []byte("hi"), "", nil)
	must.NoError(t, err)
	must.EqOp(t, "sweep/dispatch-1718355600-0a1b2c3d", resp.DispatchedJobID)
	must.EqOp(t, "ev", resp.EvalID)
	must.EqOp(t, uint64(12), resp.EvalCreateIndex)
	must.EqOp(t, uint64(12), resp.JobCreateIndex)
	must.EqOp(t, uint64(12), wm.LastIndex)
	must.EqOp(t, "sweep", srv.gotJob)
	must.Eq(t, map[string]string{"shard": "1"}, srv.gotMeta)
	must.EqOp(t, 2, srv.gotLen, must.Sprint("the payload arrives decoded from base64"))

	r = do(t, h, http.MethodPost, "/v1/job/sweep/dispatch", "")
	mustSuccessHeaders(t, r, "12")
	must.EqOp(t, `{"Index":12,"JobCreateIndex":12,"EvalCreateIndex":12,"EvalID":"ev","DispatchedJobID":"sweep/dispatch-1718355600-0a1b2c3d"}`, r.Body)
	must.MapEmpty(t, srv.gotMeta, must.Sprint("an empty body dispatches without meta"))

	r = do(t, h, http.MethodGet, "/v1/job/sweep/dispatch", "")
	must.EqOp(t, http.StatusMethodNotAllowed, r.Status)
	r = do(t, h, http.MethodPut, "/v1/job/sweep/dispatch", "{")
	must.EqOp(t, http.StatusBadRequest, r.Status)
	must.StrHasPrefix(t, "Failed to decode body: ", r.Body)

	srv.err = fmt.Errorf("%w: %q", agent.ErrJobNotFound, "nope")
	_, _, err = c.Jobs().Dispatch("nope", nil, nil, "", nil)
	must.EqError(t, err, `Unexpected response code: 404 (job not found: "nope")`)
	srv.err = errors.New("Dispatch did not provide required meta keys: [shard]")
	_, _, err = c.Jobs().Dispatch("sweep", nil, nil, "", nil)
	must.EqError(t, err, "Unexpected response code: 500 (Dispatch did not provide required meta keys: [shard])")
}
