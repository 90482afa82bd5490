package agentcmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/cmd/conform/internal/devagent"
	"github.com/allocsim/allocsim/model/schedule"
)

// Summary is the one-line description listed by `conform help`.
const Summary = "run a dev agent: server, reference client and HTTP API in one process"

// shutdownTimeout bounds the HTTP shutdown (requests in flight).
const shutdownTimeout = 10 * time.Second

// Config holds the production adapters the command reads. The zero Config
// reads os.Getenv, time.Local and the process's signals.
type Config struct {
	// Getenv reads PATH for raw_exec tasks; nil means os.Getenv.
	Getenv func(string) string
	// Environ is the environment raw_exec tasks inherit (less PATH,
	// which Getenv gives, and devagent.EnvDenyList), as a Nomad client
	// passes the host's; nil means os.Environ.
	Environ func() []string
	// Local is the default -local-zone; nil means time.Local.
	Local *time.Location
	// Stop, when set, replaces SIGINT and SIGTERM: the agent stops when it
	// is closed.
	Stop <-chan struct{}
	// Started, when set, is called with the agent once it serves.
	Started func(*devagent.Agent)
}

type options struct {
	dev       bool
	httpAddr  string
	dataDir   string
	profile   string
	localZone string
	logLevel  string
}

func newFlagSet(name string, o *options) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.BoolVar(&o.dev, "dev", false, "dev mode (required)")
	fs.StringVar(&o.httpAddr, "http-addr", devagent.DefaultHTTPAddr, "host:port of the HTTP API")
	fs.StringVar(&o.dataDir, "data-dir", "", "data dir (default: a temporary one)")
	fs.StringVar(&o.profile, "profile", string(schedule.ProfileEnt), "ent or ce")
	fs.StringVar(&o.localZone, "local-zone", "", "zone of schedules without a timezone")
	fs.StringVar(&o.logLevel, "log-level", "info", "debug, info, warn or error")
	return fs
}

const helpText = `Usage:
  conform agent -dev [options]

Run a dev agent in the foreground: the simulated server (in memory), the
reference client and alloc runner on the real clock, and the
Nomad-compatible HTTP API (SPEC section 5), so that conform job run,
conform alloc pause and the official Nomad Go client can talk to it.
Task drivers: mock_driver (nothing runs; tasks are plans, e.g.
config { run_for = "1h" }) and raw_exec (local processes, no isolation;
config { command = "sleep" args = ["600"] }; a task inherits the agent's
environment but Nomad's default env.denylist, as on a Nomad client). CSI
volumes are not available. Parameterized batch jobs register without
running; each dispatch (nomad job dispatch, PUT /v1/job/<id>/dispatch)
runs a child job whose tasks see its meta as NOMAD_META_<key>.

Everything lives as long as the process: on exit every job is stopped and
its tasks killed (bounded by %v), and a temporary data dir is removed.

Options:
  -dev             dev mode; required (there is no other mode).
  -http-addr=A     host:port of the HTTP API (default %s). Port 0
                   picks a free port; the banner shows which. Only
                   loopback unless you name another address.
  -data-dir=DIR    where the state DB (DIR/client/state.db) and the alloc
                   dirs (DIR/alloc/<alloc-id>) go; kept on exit. Default:
                   a temporary dir, removed on exit.
  -profile=P       ent (default) runs task schedules; ce rejects any job
                   with a schedule ("task schedules requires Nomad
                   Enterprise", SCOPE-2).
  -local-zone=Z    IANA zone of schedules whose timezone is empty or
                   "Local" (SCHED-4). Default: this machine's zone (TZ).
  -log-level=L     debug, info (default), warn or error; logs go to stderr.
  -h, --help       print this help.

Output:
  A banner on stdout with the HTTP address, the node ID, the profile, the
  local zone, the drivers and the data dir; on exit, the shutdown steps.

Stopping:
  Ctrl-C (SIGINT) or SIGTERM stops the agent cleanly. A second one quits
  at once, leaving tasks running. SIGHUP prints "==> Caught signal:
  hangup" and the agent carries on (there is no configuration to
  reload); started under nohup, tasks still get SIGHUP at its default.

Exit codes:
  0  stopped cleanly
  1  the agent could not start (e.g. the address is in use) or did not
     stop cleanly (e.g. an alloc still running after the stop timeout)
  2  bad usage: -dev missing, an unknown flag, a bad -profile,
     -local-zone or -log-level

Examples:
  # The usual dev agent on 127.0.0.1:4646
  conform agent -dev

  # A CE agent on another port, schedules read in Berlin time
  conform agent -dev -profile=ce -http-addr=127.0.0.1:5646 -local-zone=Europe/Berlin
`

func writeHelp(w io.Writer) {
	fmt.Fprintf(w, helpText, devagent.DefaultStopTimeout, devagent.DefaultHTTPAddr)
}

// Run runs `conform agent` with c's adapters (package documentation).
func (c Config) Run(name string, args []string, stdout, stderr io.Writer) error {
	var o options
	fs := newFlagSet(name, &o)
	helped, err := cli.ParseFlags(fs, args, stdout, writeHelp)
	if err != nil || helped {
		return err
	}
	cfg, err := c.agentConfig(fs, o, stderr)
	if err != nil {
		return err
	}
	stdout = &lockedWriter{w: stdout}
	defer c.watchHangups(stdout)()
	stop, release := c.stopSignal()
	defer release()
	a, err := devagent.Start(cfg)
	if err != nil {
		return err
	}
	if err := writeBanner(stdout, a, o.localZone, cfg.LocalZone); err != nil {
		_ = a.Close(context.Background())
		return fmt.Errorf("writing the banner: %w", err)
	}
	if c.Started != nil {
		c.Started(a)
	}
	why := <-stop
	release() // a second signal now has its default effect
	fmt.Fprintf(stdout, "==> %s: stopping every allocation and shutting down\n", why)
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	fmt.Fprintln(stdout, "==> Stopped")
	return nil
}

// agentConfig checks the flags and builds the agent's config.
func (c Config) agentConfig(fs *flag.FlagSet, o options, stderr io.Writer) (devagent.Config, error) {
	if !o.dev {
		return devagent.Config{}, cli.Usagef("only dev mode exists: run conform agent -dev")
	}
	if fs.NArg() > 0 {
		return devagent.Config{}, cli.Usagef("unexpected argument %q: conform agent takes flags only", fs.Arg(0))
	}
	profile := schedule.Profile(o.profile)
	switch profile {
	case schedule.ProfileEnt, schedule.ProfileCE:
	default:
		return devagent.Config{}, cli.Usagef("invalid -profile %q: want ent or ce", o.profile)
	}
	zone := c.local()
	if o.localZone != "" {
		loc, err := time.LoadLocation(o.localZone)
		if err != nil {
			return devagent.Config{}, cli.Usagef("invalid -local-zone %q: %v", o.localZone, err)
		}
		zone = loc
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return devagent.Config{}, cli.Usagef("invalid -log-level %q: want debug, info, warn or error", o.logLevel)
	}
	getenv := c.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	host, _ := os.Hostname() // the node's name, as a Nomad client's default
	return devagent.Config{
		NodeName:  host,
		HTTPAddr:  o.httpAddr,
		DataDir:   o.dataDir,
		Profile:   profile,
		LocalZone: zone,
		Path:      getenv("PATH"),
		Env:       devagent.TaskEnv(c.environ()),
		Logger:    slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})),
	}, nil
}

func (c Config) environ() []string {
	if c.Environ == nil {
		return os.Environ()
	}
	return c.Environ()
}

func (c Config) local() *time.Location {
	if c.Local == nil {
		return time.Local
	}
	return c.Local
}

// stopSignal returns a channel that yields why the agent should stop (c.Stop
// closed, or SIGINT/SIGTERM when c.Stop is nil), and a function that stops
// listening (idempotent; after it a signal has its default effect).
func (c Config) stopSignal() (<-chan string, func()) {
	why := make(chan string, 1)
	done := make(chan struct{})
	var sigs chan os.Signal // stays nil (never ready) when c.Stop is set
	if c.Stop == nil {
		sigs = make(chan os.Signal, 1)
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	}
	go func() {
		select {
		case <-c.Stop: // a nil c.Stop is never ready
			why <- "stop requested"
		case s := <-sigs:
			why <- "caught " + s.String()
		case <-done:
		}
	}()
	var once sync.Once
	return why, func() {
		once.Do(func() {
			if sigs != nil {
				signal.Stop(sigs)
			}
			close(done)
		})
	}
}

// writeBanner prints where the agent listens and what it runs.
func writeBanner(w io.Writer, a *devagent.Agent, zoneFlag string, zone *time.Location) error {
	dataDir := a.DataDir()
	if a.TempDataDir() {
		dataDir += " (temporary, removed on exit)"
	}
	zoneName := zone.String()
	if zoneName == "Local" { // time.Local without a name: show its abbreviation now
		abbr, _ := time.Now().In(zone).Zone()
		zoneName += " (" + abbr + ")"
	}
	if zoneFlag == "" {
		zoneName += ", this machine's"
	}
	_, err := fmt.Fprintf(w, `==> conform dev agent started
    HTTP API:   %s
    Node ID:    %s
    Profile:    %s
    Local zone: %s
    Drivers:    %s
    Data dir:   %s
==> Serving. Try: NOMAD_ADDR=%s conform job run FILE
    Stop with Ctrl-C (SIGINT) or SIGTERM; a second one quits at once.
`, a.Addr(), a.NodeID(), a.Profile(), zoneName, strings.Join(a.Drivers(), ", "), dataDir, a.Addr())
	return err
}

// watchHangups handles SIGHUP for the rest of Run as a Nomad agent does:
// each one prints `==> Caught signal: hangup` (Nomad's line) and the agent
// carries on (Nomad then reloads its configuration; a dev agent has none
// to reload). It is only done with the process's own signals (c.Stop
// nil): a test's process is left alone.
//
// Catching SIGHUP also matters for the tasks: started under nohup, the
// process ignores SIGHUP, and an ignored disposition passes to every
// process it starts (exec keeps it). signal.Notify makes the Go runtime
// handle the signal instead (signal.Ignored then reports false), so the
// agent's raw_exec tasks get SIGHUP at its default disposition, and the
// agent itself still does not die of one. (The raw_exec driver makes sure
// of the same for any process that runs it: impl/drivers/rawexec.)
//
// The returned function stops watching and waits for the watcher to end;
// after it SIGHUP has the disposition the process started with.
func (c Config) watchHangups(stdout io.Writer) func() {
	if c.Stop != nil {
		return func() {}
	}
	hups := make(chan os.Signal, 1)
	signal.Notify(hups, syscall.SIGHUP)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-hups:
				fmt.Fprintln(stdout, "==> Caught signal: hangup")
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(hups)
			close(done)
			<-finished
		})
	}
}

// lockedWriter serialises the writes of Run and of the SIGHUP watcher.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
