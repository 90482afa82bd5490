package sim_test

import (
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// mixedJob has one alloc of two tasks: "sched" (New York window
// 09:00-09:30, so paused at 12:55) and "plain" (no schedule, runs until
// stopped, ignores SIGHUP).
func mixedJob() *api.Job {
	sched := mockTask("sched", map[string]any{"kill_after": "500ms"})
	sched.Schedule = nyWindow("30 9")
	plain := mockTask("plain", map[string]any{"ignore_signals": "SIGHUP"})
	return oneGroupJob(api.NewServiceJob, "mixed", sched, plain)
}

// reportJob is a batch job whose task exits 0 after 30 s.
func reportJob() *api.Job {
	return oneGroupJob(api.NewBatchJob, "report", mockTask("b", map[string]any{"run_for": "30s", "exit_code": 0}))
}

// apiCase is one call through the official client and the HTTP status and
// plain-text body it must fail with (API-1: `Unexpected response code:
// <code> (<body>)`); code 0 means it must succeed.
type apiCase struct {
	name string
	call func(c *api.Client, alloc *api.Allocation) error
	code int
	body string
}

// rawCase is one request sent as is, with the status and body it must get.
type rawCase struct {
	method, path, body string
	code               int
	want               string
}

// TestAPIErrorPaths: the API's error paths through the official client,
// on a running World (SPEC §5), routed locally and forwarded (API-7) with
// the same answers: the agent's own checks (API-1..6), the server's
// routing checks and the client's and runner's errors (API-7, PAUSE-2,
// PAUSE-11), each verbatim.
func TestAPIErrorPaths(t *testing.T) {
	for _, route := range routings {
		t.Run(string(route), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { errorPaths(t, route) })
		})
	}
}

func errorPaths(t *testing.T, route routing) {
	r := newAPIRig(t, apiScenario("api_errors", 33, time.Hour), route)
	r.register(mixedJob())
	r.register(reportJob())
	mixed := r.onlyAlloc("mixed")
	report := r.onlyAlloc("report")
	// The batch alloc completes (30 s); the mixed one runs "plain" and
	// holds "sched" at the gate (alloc running: one task runs).
	r.until(report.ID, time.Minute, "report complete", isStatus(structs.AllocClientStatusComplete))
	a := r.until(mixed.ID, time.Minute, "mixed running", isStatus(structs.AllocClientStatusRunning))
	must.EqOp(t, structs.TaskStatePending, a.TaskStates["sched"].State)
	must.EqOp(t, structs.TaskStateRunning, a.TaskStates["plain"].State)
	done := r.info(report.ID)
	must.EqOp(t, structs.TaskStateDead, done.TaskStates["b"].State)
	must.False(t, done.TaskStates["b"].Failed)

	unknown := &api.Allocation{ID: "00000000-0000-0000-0000-000000000000"}
	unknownMsg := `Unknown allocation "` + unknown.ID + `"`
	ce := r.client("ce")
	cases := []apiCase{
		// API-2/3 and PAUSE-2 through the runner.
		{"get unscheduled", func(c *api.Client, a *api.Allocation) error {
			s, _, err := c.Allocations().GetPauseState(a, nil, "plain")
			must.EqOp(t, "", s)
			return err
		}, 0, ""},
		{"set unscheduled", func(c *api.Client, a *api.Allocation) error {
			return c.Allocations().SetPauseState(a, nil, "plain", "pause")
		}, 500, `task "plain" has no schedule`},
		{"set unknown task", func(c *api.Client, a *api.Allocation) error {
			return c.Allocations().SetPauseState(a, nil, "ghost", "run")
		}, 500, "Task not found"},
		{"get unknown task", func(c *api.Client, a *api.Allocation) error {
			_, _, err := c.Allocations().GetPauseState(a, nil, "ghost")
			return err
		}, 500, "Task not found"},
		{"bad state", func(c *api.Client, a *api.Allocation) error {
			return c.Allocations().SetPauseState(a, nil, "sched", "sleep")
		}, 400, agent.MsgInvalidScheduleState},
		{"bad state before lookup", func(c *api.Client, _ *api.Allocation) error {
			return c.Allocations().SetPauseState(unknown, nil, "sched", "sleep")
		}, 400, agent.MsgInvalidScheduleState},
		// API-7 routing errors.
		{"get unknown alloc", func(c *api.Client, _ *api.Allocation) error {
			_, _, err := c.Allocations().GetPauseState(unknown, nil, "sched")
			return err
		}, 404, unknownMsg},
		{"set unknown alloc", func(c *api.Client, _ *api.Allocation) error {
			return c.Allocations().SetPauseState(unknown, nil, "sched", "pause")
		}, 404, unknownMsg},
		{"signal unknown alloc", func(c *api.Client, _ *api.Allocation) error {
			return c.Allocations().Signal(unknown, nil, "plain", "SIGHUP")
		}, 404, unknownMsg},
		{"info unknown alloc", func(c *api.Client, _ *api.Allocation) error {
			_, _, err := c.Allocations().Info(unknown.ID, nil)
			return err
		}, 404, agent.MsgAllocNotFound},
		// API-6, PAUSE-11.
		{"signal running task", func(c *api.Client, a *api.Allocation) error {
			return c.Allocations().Signal(a, nil, "plain", "SIGHUP")
		}, 0, ""},
		{"signal paused task", func(c *api.Client, a *api.Allocation) error {
			return c.Allocations().Signal(a, nil, "sched", "SIGHUP")
		}, 500, "Task not running"},
		{"signal unknown task", func(c *api.Client, a *api.Allocation) error {
			return c.Allocations().Signal(a, nil, "ghost", "SIGHUP")
		}, 500, "Task not found"},
		{"signal every task", func(c *api.Client, a *api.Allocation) error {
			return c.Allocations().Signal(a, nil, "", "SIGHUP")
		}, 500, "Failed to signal task: sched, err: Task not running"},
		{"signal dead task", func(c *api.Client, _ *api.Allocation) error {
			return c.Allocations().Signal(&api.Allocation{ID: report.ID}, nil, "b", "SIGHUP")
		}, 500, "Task not running"},
		// API-4.
		{"register without ID", func(c *api.Client, _ *api.Allocation) error {
			_, _, err := c.Jobs().Register(&api.Job{}, nil)
			return err
		}, 400, structs.MsgJobNoID},
		{"register ce schedule", func(_ *api.Client, _ *api.Allocation) error {
			_, _, err := ce.Jobs().Register(mixedJob(), nil)
			return err
		}, 500, "1 error occurred:\n\t* task schedules requires Nomad Enterprise"},
		{"register ce without schedule", func(_ *api.Client, _ *api.Allocation) error {
			_, _, err := ce.Jobs().Register(oneGroupJob(api.NewServiceJob, "ce-ok", mockTask("t", nil)), nil)
			return err
		}, 0, ""},
		{"register bad end", func(c *api.Client, _ *api.Allocation) error {
			j := mixedJob()
			j.ID = pointer("bad")
			j.TaskGroups[0].Tasks[0].Schedule.Cron.End = "17"
			_, _, err := c.Jobs().Register(j, nil)
			return err
		}, 500, "1 error occurred:\n\t* cron.end must contain 2 fields"},
		// API-5.
		{"allocations of an unknown job", func(c *api.Client, _ *api.Allocation) error {
			stubs, _, err := c.Jobs().Allocations("nope", true, nil)
			must.SliceEmpty(t, stubs)
			must.NotNil(t, stubs, must.Sprint("`[]`, not null"))
			return err
		}, 0, ""},
		{"prefix list", func(c *api.Client, a *api.Allocation) error {
			stubs, _, err := c.Allocations().PrefixList(a.ID[:4])
			must.SliceNotEmpty(t, stubs)
			for _, s := range stubs {
				must.StrHasPrefix(t, a.ID[:4], s.ID)
			}
			return err
		}, 0, ""},
		// API-1: the index headers, read by the official client.
		{"headers", func(c *api.Client, a *api.Allocation) error {
			got, meta, err := c.Allocations().Info(a.ID, nil)
			if err != nil {
				return err
			}
			must.EqOp(t, got.ModifyIndex, meta.LastIndex)
			must.Positive(t, meta.LastIndex)
			must.True(t, meta.KnownLeader)
			must.EqOp(t, time.Duration(0), meta.LastContact)
			return nil
		}, 0, ""},
		// API-1: region and namespace parameters are accepted.
		{"region and namespace", func(c *api.Client, a *api.Allocation) error {
			q := &api.QueryOptions{Region: "global", Namespace: "default"}
			if _, _, err := c.Allocations().Info(a.ID, q); err != nil {
				return err
			}
			_, _, err := c.Allocations().GetPauseState(a, q, "sched")
			return err
		}, 0, ""},
	}
	target := &api.Allocation{ID: mixed.ID}
	for _, tc := range cases {
		err := r.do(func() error { return tc.call(r.c, target) })
		if tc.code == 0 {
			must.NoError(t, err, must.Sprint(tc.name))
			continue
		}
		code, body := statusOf(err)
		must.EqOp(t, tc.code, code, must.Sprintf("%s: %v", tc.name, err))
		must.EqOp(t, tc.body, body, must.Sprint(tc.name))
	}

	base := "/v1/client/allocation/" + mixed.ID
	raws := []rawCase{
		// API-1: wrong methods.
		{http.MethodDelete, "/v1/jobs", "", 405, agent.MsgInvalidMethod},
		{http.MethodPatch, "/v1/jobs", "", 405, agent.MsgInvalidMethod}, // GET lists jobs (issue 14)
		{http.MethodPost, "/v1/job/mixed/allocations", "", 405, agent.MsgInvalidMethod},
		{http.MethodPut, "/v1/allocation/" + mixed.ID, "", 405, agent.MsgInvalidMethod},
		{http.MethodDelete, "/v1/allocations", "", 405, agent.MsgInvalidMethod},
		{http.MethodDelete, base + "/pause", "", 405, agent.MsgInvalidMethod},
		{http.MethodGet, base + "/signal", "", 405, agent.MsgInvalidMethod},
		{http.MethodPost, "/v1/metrics?format=prometheus", "", 405, agent.MsgInvalidMethod},
		// API-2: exactly two tokens after /v1/client/allocation/.
		{http.MethodPut, base + "/pause/extra", `{"Task":"sched","ScheduleState":"pause"}`, 404, "Resource not found"},
		{http.MethodGet, base, "", 404, "Resource not found"},
		{http.MethodGet, "/v1/nothing", "", 404, "Resource not found"},
		// Malformed bodies (API-2, API-4, API-6).
		{http.MethodPut, base + "/pause", `{`, 400, "Failed to decode body: unexpected EOF"},
		{http.MethodPost, base + "/signal", `{"Task":7}`, 400,
			"Failed to decode body: json: cannot unmarshal number into Go struct field AllocSignalRequest.Task of type string"},
		{http.MethodPut, "/v1/jobs", `nope`, 400, "Failed to decode body: invalid character 'o' in literal null (expecting 'u')"},
		{http.MethodPost, "/v1/jobs", `{}`, 400, agent.MsgJobMissing},
		// An empty pause body is an empty request: no valid state.
		{http.MethodPost, base + "/pause", ``, 400, agent.MsgInvalidScheduleState},
		// API-2: an empty alloc ID is no path token.
		{http.MethodGet, "/v1/client/allocation//pause?task=sched", "", 404, "Resource not found"},
		// API-5: prefix listing, as the CLI uses it.
		{http.MethodGet, "/v1/allocations?prefix=zz", "", 200, "[]"},
		{http.MethodGet, "/v1/job/nope/allocations", "", 200, "[]"},
		// POST variants (API-2, API-6): {"Index":0}.
		{http.MethodPost, base + "/pause", `{"Task":"sched","ScheduleState":"scheduled"}`, 200, `{"Index":0}`},
		{http.MethodPost, base + "/signal", `{"Task":"plain","Signal":"SIGHUP"}`, 200, `{"Index":0}`},
		{http.MethodGet, base + "/pause?task=sched", "", 200, `{"ScheduleState":"scheduled_pause"}`},
	}
	for _, rc := range raws {
		code, body := r.raw(rc.method, rc.path, rc.body)
		must.EqOp(t, rc.code, code, must.Sprintf("%s %s: %s", rc.method, rc.path, body))
		must.EqOp(t, rc.want, body, must.Sprintf("%s %s", rc.method, rc.path))
	}

	// The prefix listing through the CLI's path finds exactly the allocs
	// with that prefix, sorted (API-5).
	code, body := r.raw(http.MethodGet, "/v1/allocations?prefix="+mixed.ID[:8], "")
	must.EqOp(t, 200, code)
	must.StrContains(t, body, `"ID":"`+mixed.ID+`"`)
	must.StrNotContains(t, body, report.ID)

	// Nothing above paused or killed a task; "plain" was signalled three
	// times (by name, as one of every task, by POST), "sched" never. The
	// server learns it within five sync ticks (typical priority, SYNC-3)
	// and a commit window.
	r.w.Advance(2 * time.Second)
	a = r.info(mixed.ID)
	signals := 0
	for _, line := range eventLines(a, "") {
		must.False(t, strings.Contains(line, structs.TaskKilling) || strings.Contains(line, "override"), must.Sprint(line))
		if strings.Contains(line, structs.TaskSignaling) {
			must.StrHasPrefix(t, "plain ", line)
			signals++
		}
	}
	must.EqOp(t, 3, signals)
	r.close()
}

// TestAPIPartitionRouting: during a network partition the server has no
// path to the node, so a forwarded request is a 404 `No path to node`,
// while an agent whose own client holds the alloc answers locally
// (API-7); after the heal both answer.
func TestAPIPartitionRouting(t *testing.T) {
	for _, route := range routings {
		t.Run(string(route), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				sc := apiScenario("api_partition", 44, time.Hour)
				sc.Faults = faults.Plan{{Class: faults.RPCPartition, At: 10 * time.Minute, For: time.Minute}}
				r := newAPIRig(t, sc, route)
				r.register(mixedJob())
				id := r.onlyAlloc("mixed").ID
				r.w.Advance(apiStart.Add(10*time.Minute + time.Second).Sub(r.w.Now()))
				must.True(t, r.w.Network().Partitioned())
				get := func() error {
					return r.do(func() error {
						_, _, err := r.c.Allocations().GetPauseState(&api.Allocation{ID: id}, nil, "sched")
						return err
					})
				}
				err := get()
				if route == forwarded {
					code, body := statusOf(err)
					must.EqOp(t, 404, code)
					must.EqOp(t, "No path to node", body)
				} else {
					must.NoError(t, err, must.Sprint("local routing crosses no network"))
				}
				r.w.Advance(time.Minute)
				must.False(t, r.w.Network().Partitioned())
				must.NoError(t, get())
				r.close()
			})
		})
	}
}
