package devagent

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/drivers/mock"
	"github.com/allocsim/allocsim/impl/drivers/rawexec"
	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/sim/apiserver"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/server"
	"github.com/benbjohnson/clock"
	metrics "github.com/hashicorp/go-metrics"
)

// Defaults of Config.
const (
	// DefaultHTTPAddr is where the HTTP API listens: loopback only, on
	// Nomad's port.
	DefaultHTTPAddr = "127.0.0.1:4646"
	// DefaultStopTimeout bounds Close's wait for the allocs to stop: the
	// longest kill timeout a task may have (DATA-4's max_kill_timeout,
	// 30 s) plus a margin.
	DefaultStopTimeout = 35 * time.Second
	// Node identity of the dev client (TELEM-2 labels).
	Datacenter = "dc1"
	NodePool   = "default"
	Region     = "global"
)

// EnvDenyList are the variables of the agent's environment that raw_exec
// tasks do not get (TaskEnv): Nomad's default client env.denylist.
var EnvDenyList = []string{
	"CONSUL_TOKEN", "CONSUL_HTTP_TOKEN", "VAULT_TOKEN", "NOMAD_LICENSE",
	"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
	"GOOGLE_APPLICATION_CREDENTIALS",
}

// TaskEnv is the base environment raw_exec tasks get from an agent whose
// own environment is environ (KEY=VALUE pairs, os.Environ's form):
// everything but PATH (Config.Path carries it) and EnvDenyList.
func TaskEnv(environ []string) map[string]string {
	out := map[string]string{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || k == "PATH" || slices.Contains(EnvDenyList, k) {
			continue
		}
		out[k] = v
	}
	return out
}

// Data dir layout.
const (
	stateSubdir = "client" // bbolt file: <data>/client/state.db
	allocSubdir = "alloc"  // alloc dirs: <data>/alloc/<allocID>
)

// Config configures a dev agent. The zero value is usable: loopback port
// 4646, a temporary data dir, profile ent, UTC as the local zone, the
// real clock, a random seed.
type Config struct {
	// HTTPAddr is host:port for the HTTP API; empty means DefaultHTTPAddr.
	// Port 0 picks a free port (read it back with Agent.Addr).
	HTTPAddr string
	// DataDir holds the state DB and the alloc dirs; it is created if
	// missing and kept on Close. Empty means a temporary dir, removed on
	// Close.
	DataDir string
	// Profile is the admission profile (SCOPE-2): "" or "ent", or "ce".
	Profile schedule.Profile
	// LocalZone is the zone of schedules without a timezone (SCHED-4);
	// nil means UTC. `conform agent` passes time.Local.
	LocalZone *time.Location
	// NodeName is the node's name (Nomad's default: the host name);
	// empty means records.DefaultNodeName of its ID.
	NodeName string
	// Path is the PATH of raw_exec tasks; empty means rawexec.DefaultPath.
	Path string
	// Env is the rest of raw_exec tasks' base environment (under PATH and
	// the task's own); nil means none. `conform agent` passes its own
	// environment less EnvDenyList, as a Nomad client passes the host's.
	Env map[string]string
	// Clock is the agent's only clock; nil means clock.New().
	Clock clock.Clock
	// Seed derives the node, alloc and eval IDs; 0 means a random seed.
	Seed uint64
	// Logger receives the client's and the agent's logs; nil discards.
	Logger *slog.Logger
	// StopTimeout bounds Close's wait for allocs to stop; zero or
	// negative means DefaultStopTimeout.
	StopTimeout time.Duration
}

// Agent is a running dev agent. Build it with Start; stop it with Close.
type Agent struct {
	cfg     Config
	dataDir string
	tempDir bool
	nodeID  string
	addr    string

	srv     *server.Server
	db      *state.DB
	mockDrv *mock.Driver
	rawDrv  *rawexec.Driver
	client  interfaces.Client
	http    *http.Server
	served  chan struct{} // closed when Serve returned

	closeOnce sync.Once
	closeErr  error
}

// Start builds and starts a dev agent (see the package documentation). On
// error, whatever was built is torn down again.
func Start(cfg Config) (*Agent, error) {
	cfg, err := withDefaults(cfg)
	if err != nil {
		return nil, err
	}
	a := &Agent{cfg: cfg, served: make(chan struct{})}
	var undo []func()
	if err := a.start(&undo); err != nil {
		for _, f := range slices.Backward(undo) {
			f()
		}
		return nil, err
	}
	return a, nil
}

// start builds the parts in order, pushing onto undo how to tear each
// down.
func (a *Agent) start(undo *[]func()) error {
	cfg := a.cfg
	if err := a.makeDataDir(); err != nil {
		return err
	}
	*undo = append(*undo, a.removeDataDir)

	db, err := state.OpenBolt(state.BoltConfig{Dir: filepath.Join(a.dataDir, stateSubdir)})
	if err != nil {
		return fmt.Errorf("opening the state DB: %w", err)
	}
	a.db = db
	*undo = append(*undo, func() { _ = db.Close() })

	a.srv, err = server.New(server.Config{
		Clock: cfg.Clock, Rand: seeds.Stream(cfg.Seed, "server"), Profile: cfg.Profile,
	})
	if err != nil {
		return fmt.Errorf("building the server: %w", err)
	}
	a.nodeID = seeds.ID(seeds.Stream(cfg.Seed, "node"))
	if err := a.srv.RegisterNode(a.nodeID, syncpolicy.NodeStatusReady); err != nil {
		return fmt.Errorf("registering the node: %w", err)
	}

	a.mockDrv = mock.New(mock.Config{Clock: cfg.Clock})
	a.rawDrv = rawexec.New(rawexec.Config{Clock: cfg.Clock, Path: cfg.Path, Env: cfg.Env})
	*undo = append(*undo, a.mockDrv.Close, a.rawDrv.Close)
	// What `nomad node status` shows of the node.
	if err := a.srv.DescribeNode(a.nodeID, records.Node{Name: cfg.NodeName, Datacenter: Datacenter,
		NodePool: NodePool, Drivers: a.Drivers()}); err != nil {
		return fmt.Errorf("describing the node: %w", err)
	}

	sink := metrics.NewInmemSink(10*time.Second, time.Minute)
	m, err := hookstats.NewMetrics(sink)
	if err != nil {
		return err
	}
	dirs, err := allocdir.DiskFactory(allocdir.Config{Root: filepath.Join(a.dataDir, allocSubdir), Clock: cfg.Clock})
	if err != nil {
		return err
	}
	c, err := reference.Factory.NewClient(&interfaces.ClientOptions{
		Node: &interfaces.ClientConfig{
			NodeID: a.nodeID, Datacenter: Datacenter, NodePool: NodePool, Region: Region,
			LocalZone: cfg.LocalZone, ScheduleProfile: string(cfg.Profile),
		},
		Logger:          cfg.Logger,
		Clock:           cfg.Clock,
		Rand:            seeds.Stream(cfg.Seed, "client"),
		StateDB:         db,
		DriverManager:   drivers.NewRegistry(a.mockDrv, a.rawDrv),
		AllocDirFactory: dirs,
		Metrics:         m,
		RPCClient:       localConn{srv: a.srv},
		// The dev agent runs the reference runner.
		AllocRunnerFactory: reference.Factory.NewAllocRunner,
	})
	if err != nil {
		return fmt.Errorf("building the client: %w", err)
	}
	a.client = c
	*undo = append(*undo, c.Shutdown)
	if err := c.Start(); err != nil {
		return fmt.Errorf("starting the client: %w", err)
	}
	a.srv.Connect(a.nodeID, nodeConn{client: c})

	handler, err := agent.New(agent.Config{
		Server: apiserver.New(a.srv, seeds.Stream(cfg.Seed, apiserver.EvalStream)), Client: c,
		Profile: cfg.Profile, Metrics: sink,
	})
	if err != nil {
		return fmt.Errorf("building the HTTP API: %w", err)
	}
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listening for the HTTP API: %w", err)
	}
	a.addr = "http://" + ln.Addr().String()
	// Requests' contexts end when the HTTP API stops, so that a following
	// stream (`alloc logs -f`, `alloc fs -f`) ends then and Shutdown need
	// not wait for its client to hang up.
	streams, endStreams := context.WithCancel(context.Background())
	a.http = &http.Server{
		Handler: handler, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return streams },
	}
	a.http.RegisterOnShutdown(endStreams)
	go func() {
		defer close(a.served)
		if err := a.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			cfg.Logger.Error("HTTP API stopped", "error", err)
		}
	}()
	return nil
}

func withDefaults(cfg Config) (Config, error) {
	if cfg.HTTPAddr == "" {
		cfg.HTTPAddr = DefaultHTTPAddr
	}
	switch cfg.Profile {
	case "":
		cfg.Profile = schedule.ProfileEnt
	case schedule.ProfileEnt, schedule.ProfileCE:
	default:
		return cfg, fmt.Errorf("unknown profile %q: want ent or ce", cfg.Profile)
	}
	if cfg.LocalZone == nil {
		cfg.LocalZone = time.UTC
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.New()
	}
	if cfg.Seed == 0 {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return cfg, fmt.Errorf("drawing a seed: %w", err)
		}
		cfg.Seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.StopTimeout <= 0 {
		cfg.StopTimeout = DefaultStopTimeout
	}
	return cfg, nil
}

func (a *Agent) makeDataDir() error {
	if a.cfg.DataDir == "" {
		dir, err := os.MkdirTemp("", "conform-agent-")
		if err != nil {
			return fmt.Errorf("making a temporary data dir: %w", err)
		}
		a.dataDir, a.tempDir = dir, true
		return nil
	}
	dir, err := filepath.Abs(a.cfg.DataDir)
	if err != nil {
		return fmt.Errorf("data dir %q: %w", a.cfg.DataDir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("making the data dir: %w", err)
	}
	a.dataDir = dir
	return nil
}

// removeDataDir removes a temporary data dir; a given one stays.
func (a *Agent) removeDataDir() {
	if a.tempDir {
		if err := os.RemoveAll(a.dataDir); err != nil {
			a.cfg.Logger.Error("removing the temporary data dir failed", "dir", a.dataDir, "error", err)
		}
	}
}

// closeDrivers closes both drivers; closing twice is harmless.
func (a *Agent) closeDrivers() {
	a.mockDrv.Close()
	a.rawDrv.Close()
}

// Addr is the HTTP API's base URL, e.g. "http://127.0.0.1:4646".
func (a *Agent) Addr() string { return a.addr }

// NodeID is the dev client's node.
func (a *Agent) NodeID() string { return a.nodeID }

// DataDir is the data dir in use (absolute).
func (a *Agent) DataDir() string { return a.dataDir }

// TempDataDir reports whether the data dir is temporary (removed on Close).
func (a *Agent) TempDataDir() bool { return a.tempDir }

// Profile is the admission profile in force.
func (a *Agent) Profile() schedule.Profile { return a.cfg.Profile }

// Drivers are the names of the registered task drivers, sorted.
func (a *Agent) Drivers() []string {
	return []string{a.mockDrv.Name(), a.rawDrv.Name()}
}

// Close stops the agent (package documentation) and returns every error
// met, joined; it is idempotent. ctx bounds the HTTP shutdown only; the
// alloc stop wait is bounded by Config.StopTimeout.
func (a *Agent) Close(ctx context.Context) error {
	a.closeOnce.Do(func() { a.closeErr = a.close(ctx) })
	return a.closeErr
}

func (a *Agent) close(ctx context.Context) error {
	var errs []error
	if err := a.http.Shutdown(ctx); err != nil {
		errs = append(errs, fmt.Errorf("stopping the HTTP API: %w", err))
		_ = a.http.Close()
	}
	<-a.served
	if err := a.stopAllocs(); err != nil {
		errs = append(errs, err)
		// Kills still in progress would hold the runners' shutdown until
		// their kill timeouts: abandon those tasks now (they keep running).
		a.closeDrivers()
	}
	if err := a.shutdownClient(); err != nil {
		errs = append(errs, err)
	}
	a.srv.Connect(a.nodeID, nil)
	a.closeDrivers()
	if err := a.db.Close(); err != nil {
		errs = append(errs, fmt.Errorf("closing the state DB: %w", err))
	}
	a.removeDataDir()
	return errors.Join(errs...)
}
