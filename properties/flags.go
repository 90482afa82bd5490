package properties

import (
	"flag"
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
	if *flagArtifacts != "" {
		c.artifactDir = *flagArtifacts
	}
}
