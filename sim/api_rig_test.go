package sim_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/apiserver"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// The API scenario tests (project issue 6) drive the reference runner in a
// simulated World through the official Go client (github.com/hashicorp/
// nomad/api) over agent.InMemoryTransport: no sockets, virtual time only.
// Every test runs inside a testing/synctest bubble; the world advances
// only through Advance and RunUntil (which synctest.Wait before every
// clock move, DESIGN.md "Determinism").
//
// An API call runs in a goroutine of its own while the world advances
// (apiRig.do): a call that reaches a driver (a signal, a pause stop) is
// held at the world's gate and released on the world's loop, as the
// world's own scenario calls are; the call returns at the instant it was
// made unless it needs the clock.

// routing says how the agent reaches the alloc (API-7).
type routing string

const (
	// local: the agent's own client is the world's client, so pause and
	// signal requests are the client RPCs, called in process.
	local routing = "local"
	// forwarded: the agent has no client, so every pause and signal
	// request is a server RPC that the simulated server forwards over the
	// simulated network to the node.
	forwarded routing = "forwarded"
)

var routings = []routing{local, forwarded}

// apiStart is 08:55 in New York (EDT, UTC-4): five minutes before the
// 09:00 New York window of nyWindow.
var apiStart = time.Date(2024, 6, 14, 12, 55, 0, 0, time.UTC)

// referenceFactory is the reference runner under test.
func referenceFactory() interfaces.Factory { return reference.Factory }

// apiScenario is a run without scenario jobs or calls: everything happens
// through the API.
func apiScenario(name string, seed uint64, d time.Duration) scenario.Scenario {
	return scenario.Scenario{Name: name, Seed: seed, Start: apiStart, Duration: scenario.Duration(d), LocalZone: "Europe/Berlin"}
}

// apiRig is a started World with an HTTP agent in front of it and the
// official client talking to that agent.
type apiRig struct {
	t     *testing.T
	w     *sim.World
	c     *api.Client
	seen  *endpointLog
	route routing
	// closed is set by close.
	closed bool
}

// newAPIRig builds and starts the world of sc and the agent in front of
// it (profile ent), routed as r. It must run inside a synctest bubble.
func newAPIRig(t *testing.T, sc scenario.Scenario, r routing) *apiRig {
	t.Helper()
	w, err := sim.New(sim.Config{Scenario: sc, Factory: referenceFactory()})
	must.NoError(t, err)
	must.NoError(t, w.Start())
	rig := &apiRig{t: t, w: w, seen: &endpointLog{}, route: r}
	// A failed test stops before close: tear the world down anyway, so the
	// bubble ends with no goroutine left and the failure is what shows.
	t.Cleanup(func() {
		if !rig.closed {
			_ = w.Close()
		}
	})
	rig.c = rig.client(schedule.ProfileEnt)
	return rig
}

// client returns an official client of a fresh agent with profile p on
// the rig's world (routed as the rig is), logging the endpoints it hits.
func (r *apiRig) client(p schedule.Profile) *api.Client {
	r.t.Helper()
	cfg := agent.Config{
		Server:  apiserver.New(r.w.Server(), seeds.Stream(r.w.Scenario().Seed, apiserver.EvalStream)),
		Profile: p,
		Metrics: apiserver.MetricsReader(r.w.Metrics),
	}
	if r.route == local {
		cfg.Client = r.w.Client()
	}
	h, err := agent.New(cfg)
	must.NoError(r.t, err)
	c, err := agent.NewAPIClient(r.seen.wrap(h))
	must.NoError(r.t, err)
	return c
}

// do makes one API call in a goroutine of its own and advances the world
// until it returned (at most a minute of virtual time).
func (r *apiRig) do(call func() error) error {
	r.t.Helper()
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		err = call()
	}()
	returned := r.w.RunUntil(func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}, time.Minute)
	must.True(r.t, returned, must.Sprint("API call did not return within a minute of virtual time"))
	return err
}

// mustDo is do for a call that must succeed.
func (r *apiRig) mustDo(what string, call func() error) {
	r.t.Helper()
	must.NoError(r.t, r.do(call), must.Sprint(what))
}

// close ends the run; the world must have found no violation.
func (r *apiRig) close() {
	r.t.Helper()
	r.closed = true
	must.NoError(r.t, r.w.Close())
}

// info reads one alloc through the API.
func (r *apiRig) info(id string) *api.Allocation {
	r.t.Helper()
	var a *api.Allocation
	r.mustDo("Allocations().Info", func() (err error) {
		a, _, err = r.c.Allocations().Info(id, nil)
		return err
	})
	return a
}

// onlyAlloc lists the job's allocs through the API; there must be one.
func (r *apiRig) onlyAlloc(jobID string) *api.AllocationListStub {
	r.t.Helper()
	var stubs []*api.AllocationListStub
	r.mustDo("Jobs().Allocations", func() (err error) {
		stubs, _, err = r.c.Jobs().Allocations(jobID, false, nil)
		return err
	})
	must.SliceLen(r.t, 1, stubs)
	return stubs[0]
}

// pauseState reads a task's pause state through the API (API-3).
func (r *apiRig) pauseState(allocID, task string) string {
	r.t.Helper()
	var s string
	r.mustDo("GetPauseState", func() (err error) {
		s, _, err = r.c.Allocations().GetPauseState(&api.Allocation{ID: allocID}, nil, task)
		return err
	})
	return s
}

// setPause sets a task's pause state through the API (API-2):
// "pause", "run" or "scheduled".
func (r *apiRig) setPause(allocID, task, state string) error {
	return r.do(func() error {
		return r.c.Allocations().SetPauseState(&api.Allocation{ID: allocID}, nil, task, state)
	})
}

// register registers job through the API (API-4).
func (r *apiRig) register(job *api.Job) *api.JobRegisterResponse {
	r.t.Helper()
	var resp *api.JobRegisterResponse
	r.mustDo("Jobs().Register", func() (err error) {
		resp, _, err = r.c.Jobs().Register(job, nil)
		return err
	})
	return resp
}

// until advances until the server's view of the alloc satisfies pred, at
// most limit of virtual time, then reads the alloc through the API.
func (r *apiRig) until(allocID string, limit time.Duration, what string, pred func(a *structs.Allocation) bool) *api.Allocation {
	r.t.Helper()
	ok := r.w.RunUntil(func() bool {
		a := r.w.Server().Alloc(allocID)
		return a != nil && pred(a)
	}, limit)
	a := r.info(allocID)
	must.True(r.t, ok, must.Sprintf("%s: not within %v; task events:\n%s", what, limit, strings.Join(eventLines(a, ""), "\n")))
	return a
}

// raw sends one request through the official client's HTTP client (the
// in-memory transport) and returns the status and body.
func (r *apiRig) raw(method, path, body string) (int, string) {
	r.t.Helper()
	var code int
	var out []byte
	r.mustDo(method+" "+path, func() error {
		var rd io.Reader = http.NoBody
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequest(method, agent.InMemoryAddress+path, rd)
		if err != nil {
			return err
		}
		resp, err := r.c.Raw().Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		code = resp.StatusCode
		out, err = io.ReadAll(resp.Body)
		return err
	})
	return code, string(out)
}

// statusOf returns an official client error's HTTP status and body (API-1:
// non-2xx with a plain-text body); 0 if err is not a response error.
func statusOf(err error) (int, string) {
	var ue api.UnexpectedResponseError
	if errors.As(err, &ue) {
		return ue.StatusCode(), ue.Body()
	}
	return 0, ""
}

// nyWindow is a schedule in New York's zone from 09:00 to end ("m h").
func nyWindow(end string) *api.TaskSchedule {
	return &api.TaskSchedule{Cron: &api.TaskScheduleCron{Start: "0 9 * * * *", End: end, Timezone: "America/New_York"}}
}

// mockTask is a mock_driver task with cfg.
func mockTask(name string, cfg map[string]any) *api.Task {
	t := api.NewTask(name, "mock_driver")
	t.Config = cfg
	return t
}

// oneGroupJob is a job (api.NewServiceJob or api.NewBatchJob) of one group
// "g" of one alloc running tasks.
func oneGroupJob(newJob func(id, name, region string, pri int) *api.Job, id string, tasks ...*api.Task) *api.Job {
	j := newJob(id, id, "global", 50)
	tg := api.NewTaskGroup("g", 1)
	for _, t := range tasks {
		tg.AddTask(t)
	}
	j.AddTaskGroup(tg)
	return j
}

// eventLines renders a task's events (all tasks if task is empty) as
// "<task> <virtual time> <type> <display message>".
func eventLines(a *api.Allocation, task string) []string {
	if a == nil {
		return nil
	}
	var names []string
	for name := range a.TaskStates {
		if task == "" || name == task {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var out []string
	for _, name := range names {
		for _, e := range a.TaskStates[name].Events {
			out = append(out, fmt.Sprintf("%s %s %s %s", name, at(e.Time), e.Type, e.DisplayMessage))
		}
	}
	return out
}

// at formats a task event's time (Unix ns) as UTC time of day.
func at(ns int64) string { return time.Unix(0, ns).UTC().Format("15:04:05.000") }

// eventsAfter returns a task's events (as eventLines) strictly after
// instant from.
func eventsAfter(a *api.Allocation, task string, from time.Time) []string {
	var out []string
	if ts := a.TaskStates[task]; ts != nil {
		for _, e := range ts.Events {
			if e.Time > from.UnixNano() {
				out = append(out, fmt.Sprintf("%s %s %s %s", task, at(e.Time), e.Type, e.DisplayMessage))
			}
		}
	}
	return out
}

// traceOf returns the world's trace as bytes.
func traceOf(t *testing.T, w *sim.World) []byte {
	t.Helper()
	var buf bytes.Buffer
	_, err := w.Trace().WriteTo(&buf)
	must.NoError(t, err)
	return buf.Bytes()
}

// forwards counts the trace's forwarded client RPCs of method (API-7's
// server path: the simulated network traces "forward").
func forwards(w *sim.World, method string) int {
	n := 0
	for _, rec := range w.Trace().Records() {
		if rec.Kind == trace.KindRPC && rec.Op == method && rec.Msg == "forward" {
			n++
		}
	}
	return n
}

// endpointLog records which SPEC §5 endpoints a handler served, by
// method and path pattern, so a test can check that every endpoint was
// exercised, and a transcript of every exchange (request, status, body),
// so a test can compare two runs byte for byte.
type endpointLog struct {
	mu         sync.Mutex
	seen       map[string]bool
	transcript []string
}

func (l *endpointLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		l.mu.Lock()
		if l.seen == nil {
			l.seen = map[string]bool{}
		}
		l.seen[r.Method+" "+pattern(r.URL.Path)] = true
		l.transcript = append(l.transcript, fmt.Sprintf("%s %s -> %d %s %s",
			r.Method, r.URL.RequestURI(), rec.Code, rec.Header().Get("X-Nomad-Index"), rec.Body.String()))
		l.mu.Unlock()
		maps.Copy(w.Header(), rec.Header())
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// pattern replaces the ID segments of an API path by placeholders.
func pattern(path string) string {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	switch {
	case len(segs) == 4 && segs[1] == "job":
		segs[2] = "<id>"
	case len(segs) == 3 && segs[1] == "allocation":
		segs[2] = "<id>"
	case len(segs) >= 4 && segs[1] == "client" && segs[2] == "allocation":
		segs[3] = "<id>"
	}
	return "/" + strings.Join(segs, "/")
}

// endpoints lists what was served, sorted.
func (l *endpointLog) endpoints() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for e := range l.seen {
		out = append(out, e)
	}
	slices.Sort(out)
	return out
}

// exchanges is the transcript so far.
func (l *endpointLog) exchanges() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.transcript)
}
