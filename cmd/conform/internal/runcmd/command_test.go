package runcmd

import (
	"bytes"
	"testing"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/cmd/conform/internal/runners"
	"github.com/allocsim/allocsim/properties"
	"github.com/shoenig/test/must"
)

// TestBadUsage: every bad command line is a usage error (exit 2) with a
// message naming the problem, before anything is built.
func TestBadUsage(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"run", nil, "name a runner"},
		{"run", []string{"--runner", "nope"}, `no built-in runner "nope"`},
		{"run", []string{"--runner", "reference", "extra"}, "unexpected arguments"},
		{"run", []string{"--runner", "reference", "--profile", "most"}, `--profile "most"`},
		{"run", []string{"--runner", "reference", "--shard", "3/2"}, `--shard "3/2"`},
		{"run", []string{"--runner", "reference", "--shard", "x"}, `--shard "x"`},
		{"run", []string{"--runner", "reference", "--parallel", "-1"}, "must be positive"},
		{"run", []string{"--runner", "reference", "--factory", "New"}, "--factory names a factory of --pkg"},
		{"run", []string{"--checks", "x"}, "invalid value"},
		{"replay", nil, "name one runner"},
		{"replay", []string{"--runner", "reference", "--pkg", "x"}, "name one runner"},
		{"replay", []string{"--runner", "all", "--property", "A-1/x", "--seed", "1"}, "is a group"},
		{"replay", []string{"--runner", "reference", "--property", "SCHED-5", "--seed", "1"}, "want a property ID"},
		{"replay", []string{"--runner", "reference", "--property", "SCHED-5/x"}, "--seed"},
		{"replay", []string{"--runner", "nope", "--property", "SCHED-5/x", "--seed", "1"}, `no built-in runner "nope"`},
	} {
		var out, errOut bytes.Buffer
		c := Config{}
		run := c.Run
		if tt.cmd == "replay" {
			run = c.Replay
		}
		err := run(tt.cmd, tt.args, &out, &errOut)
		must.True(t, cli.IsUsage(err), must.Sprintf("%s %q: %v", tt.cmd, tt.args, err))
		must.ErrorContains(t, err, tt.want, must.Sprintf("%s %q", tt.cmd, tt.args))
	}
}

func TestHelp(t *testing.T) {
	for _, run := range []cli.RunFunc{Config{}.Run, Config{}.Replay} {
		var out bytes.Buffer
		must.NoError(t, run("x", []string{"--help"}, &out, nil))
		must.StrContains(t, out.String(), "Usage:\n  conform ")
		must.StrContains(t, out.String(), "Exit codes:")
		must.StrContains(t, out.String(), "--runner")
	}
}

// TestGroupsCarryTheBuiltInExpectations: "all" is the reference and
// minimal runners expected to conform and every mutant expected to fail
// the rules it breaks; a runner named alone is expected to conform
// unless --expect-fail.
func TestGroupsCarryTheBuiltInExpectations(t *testing.T) {
	ts, err := selection{runners: []string{"all", "reference"}}.targets()
	must.NoError(t, err)
	must.Eq(t, len(runners.All()), len(ts), must.Sprint("a runner named twice is checked once"))
	must.Eq(t, "reference", ts[0].Name)
	must.False(t, ts[0].ExpectFail)
	must.SliceEmpty(t, ts[0].Specs)
	for _, tg := range ts[2:] {
		must.True(t, tg.ExpectFail, must.Sprint(tg.Name))
		must.SliceNotEmpty(t, tg.Specs, must.Sprint(tg.Name))
	}
	ts, err = selection{runners: []string{"sched-utc"}}.targets()
	must.NoError(t, err)
	must.Eq(t, "mutant/sched-utc", ts[0].Name)
	must.False(t, ts[0].ExpectFail)
	must.SliceEmpty(t, ts[0].Specs, must.Sprint("named alone, a mutant runs the whole suite"))
	ts, err = selection{runners: []string{"mutant/sched-utc"}, expectFail: true, profile: "client-communication"}.targets()
	must.NoError(t, err)
	must.True(t, ts[0].ExpectFail)
	must.Eq(t, "client-communication", ts[0].Profile)
	ts, err = selection{pkg: "./x", factory: "New"}.targets()
	must.NoError(t, err)
	must.Eq(t, "full", ts[0].Profile)
	must.False(t, ts[0].Builtin)
}

// TestArtifactNameIsTheSuites: replay finds the trace where the suite
// writes it.
func TestArtifactNameIsTheSuites(t *testing.T) {
	must.Eq(t, properties.ArtifactBase("d", "SCHED-5/inside-windows-only", 42), "d/"+artifactName("SCHED-5/inside-windows-only", 42))
}

func TestShellQuote(t *testing.T) {
	must.Eq(t, "./examples/noderunner", shellQuote("./examples/noderunner"))
	must.Eq(t, `'a b'`, shellQuote("a b"))
	must.Eq(t, `'it'\''s'`, shellQuote("it's"))
	must.Eq(t, `''`, shellQuote(""))
}
