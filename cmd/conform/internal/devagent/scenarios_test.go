package devagent

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/internal/apiscenario"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// TestDevAgentScenarios runs the dev agent scenarios under
// testdata/scenarios: each file is one scenario and its expected output,
// against a dev agent (Start) on the real clock and a loopback port,
// driven through the official Go client as the `nomad` CLI drives it.
// Rewrite the expected output with
//
//	go test ./cmd/conform/internal/devagent/ -run '^TestDevAgentScenarios$' -rewrite
//
// and read the diff. A scenario with a raw_exec task runs on Linux only.
//
// The command vocabulary is sim's API scenarios' (sim/api_scenarios_test.go)
// where the two meet, with the same output conventions: IDs print as
// labels (an alloc's as its name in angle brackets, the node's as <node>,
// any other UUID but the nil UUID as <id1>, <id2>, ...), an API error as
// its HTTP status and body. The shared part is one copy, in
// internal/apiscenario. What differs comes from the real clock: run-until polls the
// API for at most within of wall-clock time (a bound, never an assertion
// on durations), and nothing prints that depends on when it is read:
// no time, no index, no status but the one a run-until waited for.
//
// # Commands
//
//	start [profile=ent|ce] [path=<PATH of raw_exec tasks>] [seed=<n>]
//	    starts the agent on 127.0.0.1:0 with a temporary data dir.
//	register [job=<id>] [type=service|batch]
//	<task> [driver=<driver>] [schedule=(<start>, <end>, <zone>)] [<config key>=<value>]...
//	    as in sim, and a schedule may be relative to the wall clock:
//	    schedule=(now-1m, now+2h, UTC) is a window that opened at the
//	    start of the previous minute and closes two hours from now.
//	allocs job=<id> [all]
//	run-until alloc=<alloc> [task=<task>] [status=<s>|(<s>, ...)]
//	          [state=<task state>] [events=<n> [type=<event type>]] [within=<d>]
//	    polls the alloc through the API every 20 ms, 10 s at most unless
//	    within says otherwise, until it meets every condition given.
//	events alloc=<alloc> [task=<task>]
//	    the task events not printed before: "<task> <type> <message>".
//	get-pause alloc=<alloc> task=<task>
//	pause alloc=<alloc> task=<task> state=pause|run|scheduled
//	metrics [suffix=<suffix>]
//	logs alloc=<alloc> task=<task> type=stdout|stderr [origin=start|end] [offset=<n>] [follow]
//	    the log's content, quoted; follow reads until the stream ends.
//	fs-list alloc=<alloc> path=<path>
//	fs-stat alloc=<alloc> path=<path>
//	fs-cat alloc=<alloc> path=<path>
//	close
func TestDevAgentScenarios(t *testing.T) {
	apiscenario.Walk(t, "./cmd/conform/internal/devagent/", "testdata/scenarios", func(t *testing.T, _, path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if runtime.GOOS != "linux" && strings.Contains(string(b), "driver=raw_exec") {
			t.Skip("raw_exec runs tasks on Linux only")
		}
		e := &agentEnv{t: t}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			return e.handle(d)
		})
	})
}

// agentEnv is one scenario's dev agent and the official client talking
// to it over loopback.
type agentEnv struct {
	t      *testing.T
	a      *Agent
	c      *api.Client
	ids    apiscenario.Labels
	events apiscenario.EventLog // what events printed so far
}

// handle runs one directive and returns its output.
func (e *agentEnv) handle(d *datadriven.TestData) string {
	e.t.Helper()
	out := agentCommands.Run(e.t, e, d, e.a != nil)
	if e.a == nil {
		return out
	}
	return e.ids.Redact(out, e.a.NodeID(), e.a.srv)
}

// agentCommands maps each command to its handler.
var agentCommands = apiscenario.Commands[*agentEnv]{
	"start":     (*agentEnv).handleStart,
	"close":     (*agentEnv).handleClose,
	"metrics":   (*agentEnv).handleMetrics,
	"register":  (*agentEnv).handleRegister,
	"allocs":    (*agentEnv).handleAllocs,
	"run-until": (*agentEnv).handleRunUntil,
	"events":    (*agentEnv).handleEvents,
	"get-pause": (*agentEnv).handleGetPause,
	"pause":     (*agentEnv).handlePause,
	"logs":      (*agentEnv).handleLogs,
	"fs-list":   (*agentEnv).handleFSList,
	"fs-stat":   (*agentEnv).handleFSStat,
	"fs-cat":    (*agentEnv).handleFSCat,
}

// allocID resolves an alloc argument: an alloc's name, a label or an ID.
func (e *agentEnv) allocID(ref string) string { return e.ids.AllocID(ref, e.a.srv) }

// within is run-until's bound: within=, else 10 s.
func within(t *testing.T, d *datadriven.TestData) time.Duration {
	t.Helper()
	v := apiscenario.Arg(t, d, "within", "10s")
	w, err := time.ParseDuration(v)
	if err != nil {
		d.Fatalf(t, "within: %v", err)
	}
	return w
}
