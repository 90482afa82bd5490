package agent

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	metrics "github.com/hashicorp/go-metrics"
)

// Server is what the agent needs from the servers: it is the agent's path
// to them (a simulated server, or an adapter over an RPC connection).
// Implementations must be safe for concurrent use and must not retain the
// values they are given or return values they keep mutating.
type Server interface {
	// RegisterJob admits and places a job (API-4). The agent has already
	// validated it (ValidateJob) with its own profile; a server that
	// validates again should report its failures joined (errors.Join or
	// go-multierror, possibly wrapped): the agent then serves each joined
	// error as one item of the multierror body.
	RegisterJob(job *structs.Job) (evalID string, evalIndex, jobModifyIndex uint64, err error)
	// JobAllocations returns the job's allocs (all: including those of
	// older job versions); an unknown job has none.
	JobAllocations(jobID string, all bool) []*structs.Allocation
	// Alloc returns one alloc, full (with Job).
	Alloc(id string) (*structs.Allocation, bool)
	// AllocsByPrefix returns the allocs whose ID starts with prefix.
	AllocsByPrefix(prefix string) []*structs.Allocation
	// RPC calls a server RPC; the agent uses ClientAllocations.SetPauseState,
	// ClientAllocations.GetPauseState and ClientAllocations.Signal with the
	// shapes of model/structs/rpc.go (API-7).
	RPC(method string, args, reply any) error
}

// MetricsSource is what /v1/metrics renders; *metrics.InmemSink
// implements it.
type MetricsSource interface {
	Data() []*metrics.IntervalMetrics
}

var _ MetricsSource = (*metrics.InmemSink)(nil)

// Config is everything an agent's HTTP API is given.
type Config struct {
	// Server is required.
	Server Server
	// Client is the agent's own client, nil for a server-only agent. Pause
	// and signal requests for an alloc it runs are answered locally
	// (API-7).
	Client interfaces.Client
	// Profile is the schedule profile of job admission (SCOPE-2, SCHED-1):
	// "" or "ent", or "ce".
	Profile schedule.Profile
	// Metrics is rendered by /v1/metrics; nil renders no metrics.
	Metrics MetricsSource
	// Region is the agent's region (/v1/agent/self, /v1/regions); empty
	// means DefaultRegion, `global`.
	Region string
}

// Handler serves the Nomad-compatible HTTP API (SPEC §5). It is an
// http.Handler, safe for concurrent use, and reads no clock.
type Handler struct {
	server  Server
	client  interfaces.Client
	profile schedule.Profile
	metrics MetricsSource
	region  string
}

var _ http.Handler = (*Handler)(nil)

// New builds the handler. It fails without a server or with a profile
// other than "", "ent" and "ce".
func New(cfg Config) (*Handler, error) {
	if cfg.Server == nil {
		return nil, errors.New(msgNilServer)
	}
	profile := cfg.Profile
	switch profile {
	case "":
		profile = schedule.ProfileEnt
	case schedule.ProfileEnt, schedule.ProfileCE:
	default:
		return nil, fmt.Errorf(fmtUnknownProfile, string(profile))
	}
	region := cfg.Region
	if region == "" {
		region = DefaultRegion
	}
	return &Handler{server: cfg.Server, client: cfg.Client, profile: profile, metrics: cfg.Metrics, region: region}, nil
}

// endpoint serves one request: a reply to encode (JSON, or text for a
// textReply) with its X-Nomad-Index, or an error (httpError for a status
// other than 500).
type endpoint func(r *http.Request) (reply any, index uint64, err error)

// ServeHTTP routes a request by path, then by method (API-1). SPEC §5:
//
//	/v1/jobs                             PUT, POST  register (API-4)
//	/v1/job/<id>/allocations             GET        stubs (API-5)
//	/v1/allocation/<id>                  GET        full alloc (API-5)
//	/v1/allocations?prefix=              GET        stubs (API-5)
//	/v1/client/allocation/<id>/pause     GET        pause state (API-3)
//	                                     PUT, POST  set pause state (API-2)
//	/v1/client/allocation/<id>/signal    PUT, POST  signal (API-6)
//
// Beyond it (Nomad's API, for the real `nomad` CLI; issue 14):
//
//	/v1/job/<id>/dispatch                PUT, POST  dispatch a parameterized
//	                                                job (Server is a
//	                                                Dispatcher)
//	/v1/client/allocation/<id>/restart   PUT, POST  restart, routed as
//	                                                API-7 routes a signal
//	/v1/validate/job                     PUT, POST  admission, no register
//	/v1/job/<id>/plan                    PUT, POST  501: not supported
//	/v1/agent/self, /v1/agent/members    GET        the agent, the only
//	                                                server
//	/v1/status/leader, /v1/status/peers  GET        its address
//	/v1/regions                          GET        its region
//	/v1/metrics?format=prometheus        GET        metrics text
//
// and, when Server is also a Cluster (else 404):
//
//	/v1/jobs?prefix=                     GET        job stubs
//	/v1/job/<id>                         GET        the job
//	                                     DELETE     stop (?purge=true)
//	/v1/job/<id>/summary                 GET        counts per group
//	/v1/job/<id>/evaluations             GET        its evaluations
//	/v1/job/<id>/deployment              GET        null
//	/v1/job/<id>/deployments             GET        []
//	/v1/evaluations?prefix=              GET        evaluations
//	/v1/evaluation/<id>                  GET        one evaluation
//	/v1/evaluation/<id>/allocations      GET        the allocs it placed
//	/v1/allocation/<id>/stop             PUT, POST  desired stop
//	/v1/search                           PUT, POST  prefix search
//	/v1/nodes?prefix=                    GET        node stubs
//	/v1/node/<id>                        GET        the node
//	/v1/node/<id>/allocations            GET        its full allocs
//
// The alloc dir endpoints (/v1/client/fs/...) are routed first, by
// routeClientFS. Any other path is a 404, any other method a 405
// `Invalid method`.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ep, ok := h.route(r)
	if !ok {
		writeError(w, notFound(MsgResourceNotFound))
		return
	}
	reply, index, err := ep(r)
	if err != nil {
		writeError(w, err)
		return
	}
	writeReply(w, reply, index)
}

// route picks the endpoint of a request; false is a 404.
func (h *Handler) route(r *http.Request) (endpoint, bool) {
	segs, ok := splitPath(r.URL)
	if !ok || len(segs) < 2 || segs[0] != "v1" {
		return nil, false
	}
	if ep, ok := h.routeClientFS(r, segs); ok {
		return ep, true
	}
	if ep, ok := h.routeNomad(r, segs); ok {
		return ep, true
	}
	switch {
	case len(segs) == 2 && segs[1] == "jobs":
		return methods(r, h.register, http.MethodPut, http.MethodPost), true
	case len(segs) == 4 && segs[1] == "job" && segs[3] == "allocations":
		return methods(r, bind(h.jobAllocations, segs[2]), http.MethodGet), true
	case len(segs) == 4 && segs[1] == "job" && segs[3] == "dispatch":
		if _, ok := h.server.(Dispatcher); !ok {
			return nil, false
		}
		return methods(r, bind(h.dispatch, segs[2]), http.MethodPut, http.MethodPost), true
	case len(segs) == 3 && segs[1] == "allocation":
		return methods(r, bind(h.allocInfo, segs[2]), http.MethodGet), true
	case len(segs) == 2 && segs[1] == "allocations":
		return methods(r, h.allocList, http.MethodGet), true
	case len(segs) == 2 && segs[1] == "metrics":
		return methods(r, h.serveMetrics, http.MethodGet), true
	case len(segs) == 5 && segs[1] == "client" && segs[2] == "allocation":
		// API-2: exactly two tokens after /v1/client/allocation/.
		switch id, action := segs[3], segs[4]; action {
		case "pause":
			if r.Method == http.MethodGet {
				return bind(h.getPause, id), true
			}
			return methods(r, bind(h.setPause, id), http.MethodPut, http.MethodPost), true
		case "signal":
			return methods(r, bind(h.signal, id), http.MethodPut, http.MethodPost), true
		}
	}
	return nil, false
}

// methods returns ep if the request's method is one of allowed, else an
// endpoint answering 405.
func methods(r *http.Request, ep endpoint, allowed ...string) endpoint {
	for _, m := range allowed {
		if r.Method == m {
			return ep
		}
	}
	return func(*http.Request) (any, uint64, error) {
		return nil, 0, &httpError{code: http.StatusMethodNotAllowed, msg: MsgInvalidMethod}
	}
}

func bind(f func(r *http.Request, id string) (any, uint64, error), id string) endpoint {
	return func(r *http.Request) (any, uint64, error) { return f(r, id) }
}

// splitPath splits the escaped path into unescaped segments, so an ID
// holding an escaped "/" stays one segment. False if the path does not
// start with "/" or does not unescape.
func splitPath(u *url.URL) ([]string, bool) {
	if u == nil {
		return nil, false
	}
	p := u.EscapedPath()
	if !strings.HasPrefix(p, "/") {
		return nil, false
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		v, err := url.PathUnescape(s)
		if err != nil {
			return nil, false
		}
		segs[i] = v
	}
	return segs, true
}
