package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	_ "time/tzdata" // SPEC SCHED-4: binaries embed the zone database.

	"github.com/allocsim/allocsim/cmd/conform/internal/agentcmd"
	"github.com/allocsim/allocsim/cmd/conform/internal/alloccmd"
	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/cmd/conform/internal/jobcmd"
	"github.com/allocsim/allocsim/cmd/conform/internal/runners"
	"github.com/allocsim/allocsim/cmd/conform/internal/schedulecmd"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, production()))
}

// environment is what the production adapter reads from the machine;
// tests replace it.
type environment struct {
	now   func() time.Time
	local *time.Location
}

func production() environment {
	return environment{now: time.Now, local: time.Local}
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
	return []command{
		{name: "schedule", summary: schedulecmd.Summary, run: sched.Run},
		{name: "agent", summary: agentcmd.Summary, run: agentcmd.Config{Local: env.local}.Run},
		{name: "job run", summary: jobcmd.RunSummary, run: jobcmd.Run},
		{name: "alloc pause", summary: alloccmd.PauseSummary, run: alloccmd.RunPause},
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
