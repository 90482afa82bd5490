package agent

import (
	"errors"
	"fmt"
	"net/http"
	"path"
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
	mux     *http.ServeMux
}

var _ http.Handler = (*Handler)(nil)

// New builds the handler. It fails without a server or with a profile
// other than "", "ent" and "ce".
func New(cfg Config) (*Handler, error) {
	if cfg.Server == nil {
		return nil, errors.New("agent config: server is nil")
	}
	profile := cfg.Profile
	switch profile {
	case "":
		profile = schedule.ProfileEnt
	case schedule.ProfileEnt, schedule.ProfileCE:
	default:
		return nil, fmt.Errorf("agent config: unknown schedule profile %q", string(profile))
	}
	region := cfg.Region
	if region == "" {
		region = DefaultRegion
	}
	h := &Handler{server: cfg.Server, client: cfg.Client, profile: profile, metrics: cfg.Metrics, region: region}
	h.mux = h.routes()
	return h, nil
}

// endpoint serves one request: a reply to encode (JSON, or text for a
// textReply) with its X-Nomad-Index, or an error (httpError for a status
// other than 500).
type endpoint func(r *http.Request) (reply any, index uint64, err error)

// routes is the route table (API-1): SPEC §5's routes, then Nomad's
// beyond it that the real `nomad` CLI reads (issue 14), those that need
// the Server's Cluster or Dispatcher part only when it has it, and the
// routes of Nomad's API the agent does not serve, each a 501. A pattern's
// {id} is one path segment, unescaped (a job ID "a/b" is `a%2Fb`).
func (h *Handler) routes() *http.ServeMux {
	m := &router{mux: http.NewServeMux(), paths: map[string]bool{}}
	// SPEC §5.
	m.handle("PUT /v1/jobs", h.register) // API-4
	m.handle("POST /v1/jobs", h.register)
	m.handle("GET /v1/job/{id}/allocations", h.jobAllocations) // API-5
	m.handle("GET /v1/allocation/{id}", h.allocInfo)
	m.handle("GET /v1/allocations", h.allocList)
	m.handle("GET /v1/client/allocation/{id}/pause", h.getPause) // API-3
	m.handle("PUT /v1/client/allocation/{id}/pause", h.setPause) // API-2
	m.handle("POST /v1/client/allocation/{id}/pause", h.setPause)
	m.handle("PUT /v1/client/allocation/{id}/signal", h.signal) // API-6
	m.handle("POST /v1/client/allocation/{id}/signal", h.signal)

	// Beyond SPEC: the agent itself, validation, restarts, metrics and
	// the alloc dirs of its own client.
	m.handle("GET /v1/agent/self", h.agentSelf)
	m.handle("GET /v1/agent/members", h.agentMembers)
	m.handle("GET /v1/status/leader", h.statusLeader)
	m.handle("GET /v1/status/peers", h.statusPeers)
	m.handle("GET /v1/regions", h.regions)
	m.handle("PUT /v1/validate/job", h.validateJob)
	m.handle("POST /v1/validate/job", h.validateJob)
	m.handle("PUT /v1/client/allocation/{id}/restart", h.restart) // routed as API-7 routes a signal
	m.handle("POST /v1/client/allocation/{id}/restart", h.restart)
	m.handle("GET /v1/metrics", h.serveMetrics)
	m.handle("GET /v1/client/fs/ls/{id}", h.fsList)
	m.handle("GET /v1/client/fs/stat/{id}", h.fsStat)
	m.handle("GET /v1/client/fs/cat/{id}", h.fsCat)
	m.handle("GET /v1/client/fs/readat/{id}", h.fsReadAt)
	m.handle("GET /v1/client/fs/stream/{id}", h.fsStream)
	m.handle("GET /v1/client/fs/logs/{id}", h.fsLogs)

	if _, ok := h.server.(Dispatcher); ok {
		m.handle("PUT /v1/job/{id}/dispatch", h.dispatch)
		m.handle("POST /v1/job/{id}/dispatch", h.dispatch)
	}
	if _, ok := h.cluster(); ok {
		m.handle("GET /v1/jobs", h.jobList)
		m.handle("GET /v1/job/{id}", h.jobInfo)
		m.handle("DELETE /v1/job/{id}", h.jobDeregister)
		m.handle("GET /v1/job/{id}/summary", h.jobSummary)
		m.handle("GET /v1/job/{id}/versions", h.jobVersions)
		m.handle("GET /v1/job/{id}/evaluations", h.jobEvaluations)
		m.handle("GET /v1/job/{id}/deployment", h.jobDeployment)
		m.handle("GET /v1/job/{id}/deployments", h.jobDeployments)
		m.handle("GET /v1/evaluations", h.evalList)
		m.handle("GET /v1/evaluation/{id}", h.evalInfo)
		m.handle("GET /v1/evaluation/{id}/allocations", h.evalAllocations)
		m.handle("PUT /v1/allocation/{id}/stop", h.allocStop)
		m.handle("POST /v1/allocation/{id}/stop", h.allocStop)
		m.handle("PUT /v1/search", h.search)
		m.handle("POST /v1/search", h.search)
		m.handle("GET /v1/nodes", h.nodeList)
		m.handle("GET /v1/node/{id}", h.nodeInfo)
		m.handle("GET /v1/node/{id}/allocations", h.nodeAllocations)
	}

	// Nomad's, not served here: 501s naming the CLI command that calls each.
	m.handle("PUT /v1/job/{id}/plan", unsupported("job plan"))
	m.handle("POST /v1/job/{id}/plan", unsupported("job plan"))
	m.handle("PUT /v1/job/{id}/evaluate", unsupported("job eval"))
	m.handle("POST /v1/job/{id}/evaluate", unsupported("job eval"))
	m.handle("GET /v1/job/{id}/scale", unsupported("job scale"))
	m.handle("PUT /v1/job/{id}/scale", unsupported("job scale"))
	m.handle("POST /v1/job/{id}/scale", unsupported("job scale"))
	m.handle("PUT /v1/job/{id}/revert", unsupported("job revert"))
	m.handle("POST /v1/job/{id}/revert", unsupported("job revert"))
	m.handle("PUT /v1/job/{id}/periodic/force", unsupported("job periodic force"))
	m.handle("POST /v1/job/{id}/periodic/force", unsupported("job periodic force"))
	m.handle("GET /v1/client/allocation/{id}/stats", unsupported("alloc status -stats"))
	m.handle("GET /v1/client/allocation/{id}/checks", unsupported("alloc checks"))
	m.handle("GET /v1/client/allocation/{id}/exec", unsupported("alloc exec"))
	m.handle("GET /v1/client/stats", unsupported("node status -stats"))
	m.handle("PUT /v1/node/{id}/eligibility", unsupported("node eligibility"))
	m.handle("POST /v1/node/{id}/eligibility", unsupported("node eligibility"))
	m.handle("PUT /v1/node/{id}/drain", unsupported("node drain"))
	m.handle("POST /v1/node/{id}/drain", unsupported("node drain"))
	m.handle("PUT /v1/node/{id}/purge", unsupported("node purge"))
	m.handle("POST /v1/node/{id}/purge", unsupported("node purge"))
	m.handle("GET /v1/namespaces", unsupported("namespace list"))
	m.handle("GET /v1/namespace/{id}", unsupported("namespace status"))
	m.handle("GET /v1/vars", unsupported("var list"))
	m.handle("GET /v1/var/{path...}", unsupported("var get"))
	m.handle("PUT /v1/var/{path...}", unsupported("var put"))
	m.handle("DELETE /v1/var/{path...}", unsupported("var purge"))
	m.handle("GET /v1/deployments", unsupported("deployment list"))
	m.handle("PUT /v1/system/gc", unsupported("system gc"))
	m.handle("PUT /v1/system/reconcile/summaries", unsupported("system reconcile summaries"))

	m.mux.HandleFunc("/", resourceNotFound)
	return m.mux
}

// router registers endpoints; a path registered for some methods answers
// the others 405 `Invalid method` (API-1).
type router struct {
	mux   *http.ServeMux
	paths map[string]bool
}

func (m *router) handle(pattern string, ep endpoint) {
	m.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		reply, index, err := ep(r)
		if err != nil {
			writeError(w, err)
			return
		}
		writeReply(w, reply, index)
	})
	if _, path, _ := strings.Cut(pattern, " "); !m.paths[path] {
		m.paths[path] = true
		m.mux.HandleFunc(path, func(w http.ResponseWriter, _ *http.Request) {
			writeError(w, &httpError{code: http.StatusMethodNotAllowed, msg: MsgInvalidMethod})
		})
	}
}

// unsupported answers a route of Nomad's API the agent does not serve:
// 501 `<op> is not supported by this agent`, op being the CLI command
// that calls it.
func unsupported(op string) endpoint {
	return func(*http.Request) (any, uint64, error) {
		return nil, 0, &httpError{code: http.StatusNotImplemented, msg: op + " is not supported by this agent"}
	}
}

// ServeHTTP serves a request by the route table. A path the mux would
// redirect to its clean form (`//`, `.`, `..` segments, no leading `/`)
// is not a path of the API: 404, as an unknown one.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if p := r.URL.EscapedPath(); !strings.HasPrefix(p, "/") || cleanPath(p) != p {
		resourceNotFound(w, r)
		return
	}
	h.mux.ServeHTTP(w, r)
}

// resourceNotFound answers a path that is not the API's.
func resourceNotFound(w http.ResponseWriter, _ *http.Request) {
	writeError(w, notFound("Resource not found"))
}

// cleanPath is p as http.ServeMux cleans it: path.Clean, keeping a
// trailing slash.
func cleanPath(p string) string {
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}
