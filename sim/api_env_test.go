package sim_test

import (
	"bytes"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/internal/apiscenario"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/apiserver"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

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

// apiStart is when every world starts: 08:55 in New York (EDT, UTC-4).
var apiStart = time.Date(2024, 6, 14, 12, 55, 0, 0, time.UTC)

// apiEnv is one run of a scenario file for one routing (TestAPIScenarios):
// a started World with an HTTP agent in front of it and the official
// client talking to that agent. It lives in one synctest bubble.
type apiEnv struct {
	t     *testing.T
	name  string  // the scenario's name: the file's
	route routing // how the agent reaches the alloc
	seed  uint64  // replaces start's seed when not 0 (replay)

	w      *sim.World
	c      *api.Client // profile ent
	ce     *api.Client // profile ce, built on first use
	seen   *endpointLog
	ids    apiscenario.Labels
	events apiscenario.EventLog // what events printed so far
	closed bool
}

func newAPIEnv(t *testing.T, name string, route routing, seed uint64) *apiEnv {
	return &apiEnv{t: t, name: name, route: route, seed: seed, seen: &endpointLog{}, events: apiscenario.EventLog{At: at}}
}

// handle runs one directive and returns its output.
func (e *apiEnv) handle(d *datadriven.TestData) string {
	e.t.Helper()
	out := apiCommands.Run(e.t, e, d, e.w != nil)
	if e.w == nil {
		return out
	}
	return e.ids.Redact(out, e.w.NodeID(), e.w.Server())
}

// apiCommands maps each command to its handler.
var apiCommands = apiscenario.Commands[*apiEnv]{
	"start":       (*apiEnv).handleStart,
	"advance":     (*apiEnv).handleAdvance,
	"run-until":   (*apiEnv).handleRunUntil,
	"forwards":    (*apiEnv).handleForwards,
	"network":     (*apiEnv).handleNetwork,
	"close":       (*apiEnv).handleClose,
	"register":    (*apiEnv).handleRegister,
	"allocs":      (*apiEnv).handleAllocs,
	"job":         (*apiEnv).handleJob,
	"job-evals":   (*apiEnv).handleJobEvals,
	"deregister":  (*apiEnv).handleDeregister,
	"eval":        (*apiEnv).handleEval,
	"info":        (*apiEnv).handleInfo,
	"events":      (*apiEnv).handleEvents,
	"prefix-list": (*apiEnv).handlePrefixList,
	"get-pause":   (*apiEnv).handleGetPause,
	"pause":       (*apiEnv).handlePause,
	"signal":      (*apiEnv).handleSignal,
	"restart":     (*apiEnv).handleRestart,
	"stop":        (*apiEnv).handleStop,
	"raw":         (*apiEnv).handleRaw,
	"metrics":     (*apiEnv).handleMetrics,
	"endpoints":   (*apiEnv).handleEndpoints,
}

// finish closes the world if the file did not, and returns what replay
// compares.
func (e *apiEnv) finish() runRecord {
	e.t.Helper()
	if e.w == nil {
		return runRecord{}
	}
	if !e.closed {
		e.closed = true
		if err := e.w.Close(); err != nil {
			e.t.Errorf("the world found violations: %v", err)
		}
	}
	var buf bytes.Buffer
	if _, err := e.w.Trace().WriteTo(&buf); err != nil {
		e.t.Fatal(err)
	}
	return runRecord{trace: buf.Bytes(), transcript: e.seen.exchanges(), endpoints: e.seen.endpoints()}
}

// client returns an official client of a fresh agent with profile p on
// the env's world (routed as the env is), logging the endpoints it hits.
func (e *apiEnv) client(p schedule.Profile) *api.Client {
	e.t.Helper()
	cfg := agent.Config{
		Server:  apiserver.New(e.w.Server(), seeds.Stream(e.w.Scenario().Seed, apiserver.EvalStream)),
		Profile: p,
		Metrics: apiserver.MetricsReader(e.w.Metrics),
	}
	if e.route == local {
		cfg.Client = e.w.Client()
	}
	h, err := agent.New(cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	c, err := agent.NewAPIClient(e.seen.wrap(h))
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// do makes one API call in a goroutine of its own and advances the world
// until it returned (at most a minute of virtual time).
func (e *apiEnv) do(call func() error) error {
	e.t.Helper()
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		err = call()
	}()
	returned := e.w.RunUntil(func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}, time.Minute)
	if !returned {
		e.t.Fatal("API call did not return within a minute of virtual time")
	}
	return err
}

// at formats a virtual instant (Unix ns) as the time of day in UTC, to
// the millisecond, or to the nanosecond when it is not a whole one.
func at(ns int64) string {
	t := time.Unix(0, ns).UTC()
	if ns%int64(time.Millisecond) != 0 {
		return t.Format("15:04:05.000000000")
	}
	return t.Format("15:04:05.000")
}

// now is the world's time as it prints.
func (e *apiEnv) now() string { return at(e.w.Now().UnixNano()) }

// allocID resolves an alloc argument: an alloc's name, a label (<...>)
// or an ID.
func (e *apiEnv) allocID(ref string) string { return e.ids.AllocID(ref, e.w.Server()) }

// durationArg parses a Go duration argument.
func durationArg(t *testing.T, d *datadriven.TestData, key string) time.Duration {
	t.Helper()
	v, err := time.ParseDuration(apiscenario.MustArg(t, d, key))
	if err != nil {
		d.Fatalf(t, "%s: %v", key, err)
	}
	return v
}

// endpointLog records which SPEC §5 endpoints a handler served, by
// method and path pattern, and a transcript of every exchange (request,
// status, index, body), so that replay can compare two runs byte for
// byte.
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
	return slices.Sorted(maps.Keys(l.seen))
}

// exchanges is the transcript so far.
func (l *endpointLog) exchanges() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.transcript)
}
