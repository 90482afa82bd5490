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

// Run runs `conform agent` with the production adapters.
func Run(name string, args []string, stdout, stderr io.Writer) error {
	return Config{}.Run(name, args, stdout, stderr)
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
	fmt.Fprintf(stdout, fmtStopping, why)
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	fmt.Fprintln(stdout, msgStopped)
	return nil
}

// agentConfig checks the flags and builds the agent's config.
func (c Config) agentConfig(fs *flag.FlagSet, o options, stderr io.Writer) (devagent.Config, error) {
	if !o.dev {
		return devagent.Config{}, cli.Usagef(msgDevOnly)
	}
	if fs.NArg() > 0 {
		return devagent.Config{}, cli.Usagef(fmtExtraArgs, fs.Arg(0))
	}
	profile := schedule.Profile(o.profile)
	switch profile {
	case schedule.ProfileEnt, schedule.ProfileCE:
	default:
		return devagent.Config{}, cli.Usagef(fmtBadProfile, o.profile)
	}
	zone := c.local()
	if o.localZone != "" {
		loc, err := time.LoadLocation(o.localZone)
		if err != nil {
			return devagent.Config{}, cli.Usagef(fmtBadZone, o.localZone, err)
		}
		zone = loc
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return devagent.Config{}, cli.Usagef(fmtBadLogLevel, o.logLevel)
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
			why <- msgStopRequested
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
	_, err := fmt.Fprintf(w, bannerFormat,
		a.Addr(), a.NodeID(), a.Profile(), zoneName, strings.Join(a.Drivers(), ", "), dataDir, a.Addr())
	return err
}
