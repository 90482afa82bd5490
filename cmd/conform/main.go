package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	_ "time/tzdata" // SPEC SCHED-4: binaries embed the zone database.

	"github.com/allocsim/allocsim/cmd/conform/internal/agentcmd"
	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/cmd/conform/internal/nomadcmd"
	"github.com/allocsim/allocsim/cmd/conform/internal/runcmd"
	"github.com/allocsim/allocsim/cmd/conform/internal/runners"
	"github.com/allocsim/allocsim/cmd/conform/internal/schedulecmd"
	"github.com/allocsim/allocsim/cmd/conform/internal/studycmd"
	"github.com/allocsim/allocsim/cmd/conform/internal/sweepcmd"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, production()))
}

// environment is what the production adapter reads from the machine;
// tests replace it.
type environment struct {
	now   func() time.Time
	local *time.Location
	// self is how printed commands invoke conform; terminal reports
	// whether a writer is a terminal.
	self     string
	terminal func(io.Writer) bool
}

func production() environment {
	return environment{now: time.Now, local: time.Local, self: selfCommand(), terminal: isTerminal}
}

// selfCommand is how a user re-runs this binary: "go run ./cmd/conform"
// under go run in the allocsim module, "conform" when that is what PATH
// finds, else the path it was started as.
func selfCommand() string {
	exe, err := os.Executable()
	if err != nil {
		return "conform"
	}
	if strings.Contains(filepath.ToSlash(exe), "/go-build") {
		if _, err := os.Stat(filepath.Join("cmd", "conform", "main.go")); err == nil {
			return "go run ./cmd/conform"
		}
		return "go run github.com/allocsim/allocsim/cmd/conform"
	}
	if p, err := exec.LookPath("conform"); err == nil {
		if a, b := resolved(p), resolved(exe); a == b {
			return "conform"
		}
	}
	return os.Args[0]
}

func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// isTerminal reports whether w is a terminal that redraws a line.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// command is one routed subcommand. name may have several words
// ("job run"); the longest matching name wins.
type command struct {
	name    string
	summary string
	run     cli.RunFunc
}

// commands is the routing table, in the order `conform help` lists it.
func commands(env environment) []command {
	sched := schedulecmd.Config{Now: env.now, Local: env.local}
	suite := runcmd.Config{Self: env.self, Terminal: env.terminal, Now: env.now}
	sweep := sweepcmd.Config{Self: env.self}
	return []command{
		{name: "schedule", summary: schedulecmd.Summary, run: sched.Run},
		{name: "agent", summary: agentcmd.Summary, run: agentcmd.Config{Local: env.local}.Run},
		{name: "job run", summary: nomadcmd.JobRunSummary, run: nomadcmd.JobRun},
		{name: "job stop", summary: nomadcmd.JobStopSummary, run: nomadcmd.JobStop},
		{name: "alloc pause", summary: nomadcmd.AllocPauseSummary, run: nomadcmd.AllocPause},
		{name: "run", summary: runcmd.Summary, run: suite.Run},
		{name: "replay", summary: runcmd.ReplaySummary, run: suite.Replay},
		{name: "sweep", summary: sweepcmd.Summary, run: sweep.Run},
		{name: "sweep merge", summary: sweepcmd.MergeSummary, run: sweep.Merge},
		{name: "study sync", summary: studycmd.Summary, run: studycmd.Config{Self: env.self}.Run},
		{name: "runners", summary: runners.Summary, run: runners.Run},
	}
}

// run routes args to a subcommand and returns the exit code.
func run(args []string, stdout, stderr io.Writer, env environment) int {
	table := commands(env)
	if len(args) == 0 {
		writeHelp(stderr, table)
		return cli.ExitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		writeHelp(stdout, table)
		return cli.ExitOK
	case "help":
		return help(args[1:], stdout, stderr, table)
	}
	cmd, rest, err := lookup(table, args)
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\nRun 'conform help' for usage.\n", err)
		return cli.ExitUsage
	}
	return cli.Report(stderr, cmd.name, cmd.run(cmd.name, rest, stdout, stderr))
}

// help is `conform help [command...]`.
func help(args []string, stdout, stderr io.Writer, table []command) int {
	if len(args) == 0 {
		writeHelp(stdout, table)
		return cli.ExitOK
	}
	cmd, rest, err := lookup(table, args)
	if err == nil && len(rest) > 0 {
		err = fmt.Errorf("unknown command %q", strings.Join(args, " "))
	}
	if err != nil {
		fmt.Fprintf(stderr, "conform help: %v\nRun 'conform help' for usage.\n", err)
		return cli.ExitUsage
	}
	return cli.Report(stderr, cmd.name, cmd.run(cmd.name, []string{"--help"}, stdout, stderr))
}

// lookup finds the command whose name is the longest word prefix of args
// and returns the remaining arguments.
func lookup(table []command, args []string) (command, []string, error) {
	var best command
	bestLen := 0
	var group []string // commands under args[0], for a helpful error
	for _, c := range table {
		words := strings.Fields(c.name)
		if words[0] == args[0] {
			group = append(group, c.name)
		}
		if len(words) > len(args) || len(words) <= bestLen {
			continue
		}
		if equalWords(words, args[:len(words)]) {
			best, bestLen = c, len(words)
		}
	}
	switch {
	case bestLen > 0:
		return best, args[bestLen:], nil
	case len(group) > 0:
		return command{}, nil, fmt.Errorf("%q needs a subcommand: %s", args[0], strings.Join(group, ", "))
	default:
		return command{}, nil, fmt.Errorf("unknown command %q", args[0])
	}
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
