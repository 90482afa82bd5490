package properties

import (
	"flag"
	"fmt"
	"strings"
	"time"
)

// Command-line flags of a test binary that imports the suite; they win
// over options. They are registered only if the binary has no flags of
// these names already.
var (
	flagSeed      = uint64Flag("allocsim.seed", "replay this seed of each selected property (a failure prints it)")
	flagChecks    = intFlag("allocsim.checks", "scenarios per property (0: the option's, else DefaultChecks)")
	flagBudget    = durationFlag("allocsim.budget", "real-time budget of the suite (0: the option's, else DefaultBudget)")
	flagArtifacts = stringFlag("allocsim.artifacts", "directory for failing runs' traces (default: t.ArtifactDir())")
	flagProperty  = stringFlag("allocsim.property", "comma-separated property IDs or SPEC IDs to run (as WithProperty)")
	flagSpecs     = stringFlag("allocsim.specs", "comma-separated SPEC IDs: run the properties that enforce one (as WithSpecs)")
	flagShard     = stringFlag("allocsim.shard", "i/n: run shard i of n of the selected properties (as WithShard)")
	flagSeeds     = stringFlag("allocsim.seeds", "lo..hi: check seeds lo to hi of each property (as WithSeedRange)")
	flagMaxSteps  = intFlag("allocsim.maxsteps", "settled instants a check may take before it stops with a BUDGET diagnosis (0: the option's, else DefaultCheckBudget's)")
	flagRerun     = intFlag("allocsim.rerun", "run every n-th check twice and compare traces, DET-4 (1: every check; 0: the option's, else DefaultRerun; -1: none)")
)

func uint64Flag(name, usage string) *uint64 {
	v := new(uint64)
	if flag.Lookup(name) == nil {
		flag.Uint64Var(v, name, 0, usage)
	}
	return v
}

func intFlag(name, usage string) *int {
	v := new(int)
	if flag.Lookup(name) == nil {
		flag.IntVar(v, name, 0, usage)
	}
	return v
}

func durationFlag(name, usage string) *time.Duration {
	v := new(time.Duration)
	if flag.Lookup(name) == nil {
		flag.DurationVar(v, name, 0, usage)
	}
	return v
}

func stringFlag(name, usage string) *string {
	v := new(string)
	if flag.Lookup(name) == nil {
		flag.StringVar(v, name, "", usage)
	}
	return v
}

// applyFlags lets set flags win over c.
func (c *config) applyFlags() {
	if *flagSeed != 0 {
		c.seed = *flagSeed
	}
	if *flagChecks > 0 {
		c.checks = *flagChecks
	}
	if *flagBudget > 0 {
		c.budget = *flagBudget
	}
	if *flagMaxSteps != 0 {
		c.checkBudget.Steps = *flagMaxSteps
	}
	if *flagRerun != 0 {
		c.rerun = *flagRerun
	}
	if *flagArtifacts != "" {
		c.artifactDir = *flagArtifacts
	}
	if *flagProperty != "" {
		c.property = strings.Split(*flagProperty, ",")
	}
	if *flagSpecs != "" {
		c.specs = strings.Split(*flagSpecs, ",")
	}
	if *flagSeeds != "" {
		var lo, hi uint64
		if _, err := fmt.Sscanf(strings.Replace(*flagSeeds, "..", " ", 1), "%d %d", &lo, &hi); err != nil {
			c.errs = append(c.errs, fmt.Errorf("properties: -allocsim.seeds=%q: want lo..hi", *flagSeeds))
			return
		}
		WithSeedRange(lo, hi)(c)
	}
	if *flagShard != "" {
		var i, n int
		if _, err := fmt.Sscanf(*flagShard, "%d/%d", &i, &n); err != nil {
			c.errs = append(c.errs, fmt.Errorf("properties: -allocsim.shard=%q: want i/n", *flagShard))
			return
		}
		WithShard(i, n)(c)
	}
}
