package properties

import (
	"errors"
	"fmt"
	"slices"
	"strings"
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
	seedsFrom   uint64
	seedsTo     uint64
	base        uint64
	property    []string
	specs       []string
	shard       int
	shards      int
	artifactDir string
	faults      []faults.Class
	budget      time.Duration
	shrinkRuns  int
	stall       time.Duration
	pkg         string
	freeRunning bool
	rerun       int
	checkBudget prop.CheckBudget
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
// scenario only (a failure's replay command sets it). With an artifact
// directory (WithArtifactDir, -allocsim.artifacts) the replayed run's
// trace and scenario are written there whether it fails or not, at
// ArtifactBase.
func WithSeed(seed uint64) Option { return func(c *config) { c.seed = seed } }

// WithSeedRange checks the scenarios of seeds lo..hi (inclusive) of each
// selected property instead of drawn ones: a seed sweep, each seed
// replayable with WithSeed. A property stops at its first failing seed.
func WithSeedRange(lo, hi uint64) Option {
	return func(c *config) {
		if lo == 0 || hi < lo {
			c.errs = append(c.errs, fmt.Errorf("properties: seed range %d..%d: want 1 ≤ lo ≤ hi", lo, hi))
			return
		}
		c.seedsFrom, c.seedsTo = lo, hi
	}
}

// WithBaseSeed changes the base the check seeds derive from (the default
// explores the same scenarios on every run).
func WithBaseSeed(base uint64) Option { return func(c *config) { c.base = base } }

// WithProperty runs only the properties whose ID is one of ids or starts
// with one of them + "/" (a SPEC ID selects all of its properties).
func WithProperty(ids ...string) Option {
	return func(c *config) { c.property = append(c.property, ids...) }
}

// WithSpecs runs only the properties that enforce one of these SPEC IDs
// (a property's Specs, as List gives them): WithSpecs("SCHED-4") selects
// the SCHED-5 properties that check zones too. With WithProperty, a
// property must match both.
func WithSpecs(ids ...string) Option {
	return func(c *config) { c.specs = append(c.specs, ids...) }
}

// WithShard runs shard i of n (1 ≤ i ≤ n): of the properties the other
// options select, in suite order, the k-th (from 0) when k mod n = i-1.
// n shards together run each property once.
func WithShard(i, n int) Option {
	return func(c *config) {
		if n < 1 || i < 1 || i > n {
			c.errs = append(c.errs, fmt.Errorf("properties: shard %d/%d: want 1 ≤ i ≤ n", i, n))
			return
		}
		c.shard, c.shards = i, n
	}
}

// WithFreeRunning runs every scenario with the world's holds released
// (sim.HoldNone): the runner's goroutines race freely within an instant,
// as they do outside the simulator, so that under `go test -race` the
// race detector sees the runner's own interleavings (it cannot see a race
// the world's holds serialise). Runs are then not reproducible: use it to
// find data races from a seed, not to replay verdicts.
func WithFreeRunning() Option { return func(c *config) { c.freeRunning = true } }

// WithRerun sets the determinism check (DET-4): every n-th check of each
// property runs twice and the two traces must be byte-identical (1: every
// check; the default is DefaultRerun, one in four; negative: none). A
// failing check is always rerun before it is reported.
func WithRerun(n int) Option { return func(c *config) { c.rerun = n } }

// CheckBudget bounds each check while it runs: settled instants, trace
// records and real time (zero fields: the defaults, DefaultCheckBudget;
// negative: none). A check past it stops with a BUDGET diagnosis (seed,
// virtual time reached, what it counted) and the suite goes on.
type CheckBudget = prop.CheckBudget

// DefaultCheckBudget is the budget of a check unless WithCheckBudget
// sets another.
var DefaultCheckBudget = prop.DefaultCheckBudget

// WithCheckBudget sets the budget of each check.
func WithCheckBudget(b CheckBudget) Option { return func(c *config) { c.checkBudget = b } }

// DefaultRerun is how often a check runs twice by default: one in four.
const DefaultRerun = prop.DefaultRerun

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

// inProfile reports whether p is in c's profile.
func (c config) inProfile(p prop.Property) bool {
	pr := prop.Full
	if c.profile == ProfileClientCommunication {
		pr = prop.ClientCommunication
	}
	return p.In(pr)
}

// matches reports whether c's property filters (IDs or SPEC IDs, and
// enforced SPEC IDs) match p.
func (c config) matches(p prop.Property) bool {
	if len(c.specs) > 0 && !slices.ContainsFunc(p.Specs, func(s string) bool { return slices.Contains(c.specs, s) }) {
		return false
	}
	if len(c.property) == 0 {
		return true
	}
	return slices.ContainsFunc(c.property, func(id string) bool {
		return p.ID == id || strings.HasPrefix(p.ID, id+"/")
	})
}

// selection describes c's filters for errors.
func (c config) selection() string {
	s := fmt.Sprintf("profile %q, property %q", c.profile, strings.Join(c.property, ","))
	if len(c.specs) > 0 {
		s += fmt.Sprintf(", specs %q", strings.Join(c.specs, ","))
	}
	if c.shards > 0 {
		s += fmt.Sprintf(", shard %d/%d", c.shard, c.shards)
	}
	return s
}
