package properties

import (
	"errors"
	"fmt"
	"time"

	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
)

// Defaults.
const (
	// DefaultChecks is how many scenarios each property draws.
	DefaultChecks = 12
	// DefaultBudget is the real-time budget of one Run or Check: the
	// properties share it evenly, each running at least one check.
	DefaultBudget = 4 * time.Minute
	// DefaultShrinkRuns bounds the runs spent shrinking one failure.
	DefaultShrinkRuns = 40
	// DefaultBaseSeed is the base of the check seeds: the suite explores
	// the same scenarios on every run unless told otherwise (BaseSeed).
	DefaultBaseSeed = 1
)

// Profile names (SCOPE-2 profiles are something else: these select
// properties).
const (
	// ProfileFull is every property: a complete runner.
	ProfileFull = "full"
	// ProfileClientCommunication is what a runner without tasks can show
	// (AR-3's minimal runner): client-server traffic only.
	ProfileClientCommunication = "client-communication"
)

// Option configures Run and Check.
type Option func(*config)

type config struct {
	profile     string
	checks      int
	seed        uint64
	base        uint64
	property    string
	artifactDir string
	faults      []faults.Class
	budget      time.Duration
	shrinkRuns  int
	stall       time.Duration
	pkg         string
	freeRunning bool
	errs        []error
}

func newConfig(opts []Option) config {
	c := config{profile: ProfileFull, checks: DefaultChecks, base: DefaultBaseSeed, budget: DefaultBudget, shrinkRuns: DefaultShrinkRuns}
	for _, o := range opts {
		o(&c)
	}
	return c
}

func (c *config) err() error { return errors.Join(c.errs...) }

// WithProfile selects the properties of a profile: ProfileFull (the
// default) or ProfileClientCommunication.
func WithProfile(name string) Option {
	return func(c *config) {
		switch name {
		case ProfileFull, ProfileClientCommunication:
			c.profile = name
		default:
			c.errs = append(c.errs, fmt.Errorf("properties: unknown profile %q (want %q or %q)", name, ProfileFull, ProfileClientCommunication))
		}
	}
}

// WithChecks sets how many scenarios each property draws (at least 1).
func WithChecks(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.errs = append(c.errs, fmt.Errorf("properties: checks must be at least 1, got %d", n))
			return
		}
		c.checks = n
	}
}

// WithSeed replays one seed: each selected property runs that seed's
// scenario only (a failure's replay command sets it).
func WithSeed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// WithBaseSeed changes the base the check seeds derive from (the default
// explores the same scenarios on every run).
func WithBaseSeed(base uint64) Option { return func(c *config) { c.base = base } }

// WithProperty runs only the properties whose ID is id or starts with
// id + "/" (a SPEC ID selects all of its properties).
func WithProperty(id string) Option { return func(c *config) { c.property = id } }

// WithFreeRunning runs every scenario with the world's holds released
// (sim.HoldNone): the runner's goroutines race freely within an instant,
// as they do outside the simulator, so that under `go test -race` the
// race detector sees the runner's own interleavings (it cannot see a race
// the world's holds serialise). Runs are then not reproducible: use it to
// find data races from a seed, not to replay verdicts.
func WithFreeRunning() Option { return func(c *config) { c.freeRunning = true } }

// WithArtifactDir writes failing runs' traces and scenarios under dir
// (Run's default is t.ArtifactDir()).
func WithArtifactDir(dir string) Option { return func(c *config) { c.artifactDir = dir } }

// WithFaults allows only these fault classes (names as in sim/faults,
// e.g. "rpc_failure", "client_crash"); no names allows none. By default
// each property draws the classes it was written for.
func WithFaults(names ...string) Option {
	return func(c *config) {
		c.faults = []faults.Class{}
		for _, n := range names {
			cl := faults.Class(n)
			if !cl.Known() {
				c.errs = append(c.errs, fmt.Errorf("properties: unknown fault class %q", n))
				continue
			}
			c.faults = append(c.faults, cl)
		}
	}
}

// WithBudget sets the real-time budget of the whole call (zero: none).
// Properties share it evenly; each runs at least one check.
func WithBudget(d time.Duration) Option { return func(c *config) { c.budget = d } }

// WithShrinkRuns bounds the runs spent shrinking each failure (0: no
// shrinking).
func WithShrinkRuns(n int) Option { return func(c *config) { c.shrinkRuns = max(n, 0) } }

// WithStall sets the stall watchdog's period (sim.WatchConfig.Stall).
func WithStall(d time.Duration) Option { return func(c *config) { c.stall = d } }

// WithPackage names the package Run is called from in replay commands
// (default "."), e.g. "./conform".
func WithPackage(pkg string) Option { return func(c *config) { c.pkg = pkg } }

func (c config) selects(p prop.Property) bool {
	pr := prop.Full
	if c.profile == ProfileClientCommunication {
		pr = prop.ClientCommunication
	}
	if !p.In(pr) {
		return false
	}
	return c.property == "" || p.ID == c.property || len(p.ID) > len(c.property) && p.ID[:len(c.property)+1] == c.property+"/"
}
