package devagent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

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
// any other UUID as <id1>, <id2>, ...), an API error as its HTTP status
// and body. What differs comes from the real clock: run-until polls the
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
	datadriven.Walk(t, "testdata/scenarios", func(t *testing.T, path string) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if runtime.GOOS != "linux" && strings.Contains(string(b), "driver=raw_exec") {
			t.Skip("raw_exec runs tasks on Linux only")
		}
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("To reproduce: go test ./cmd/conform/internal/devagent/ -run '^TestDevAgentScenarios$/^%s$' -v", name)
			}
		})
		e := &agentEnv{t: t, shown: map[string]shownEvent{}}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			return e.handle(d)
		})
	})
}

// agentEnv is one scenario's dev agent and the official client talking
// to it over loopback.
type agentEnv struct {
	t     *testing.T
	a     *Agent
	c     *api.Client
	ids   idLabels
	shown map[string]shownEvent // by "<alloc ID>/<task>"
}

// handle runs one directive and returns its output.
func (e *agentEnv) handle(d *datadriven.TestData) string {
	e.t.Helper()
	if e.a == nil && d.Cmd != "start" {
		d.Fatalf(e.t, "start the agent first")
	}
	h, ok := agentCommands[d.Cmd]
	if !ok {
		d.Fatalf(e.t, "unknown command %q", d.Cmd)
	}
	return e.ids.redact(e.a, h(e, d))
}

// agentCommands maps each command to its handler.
var agentCommands = map[string]func(*agentEnv, *datadriven.TestData) string{
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

// result is a call's output: ok, or its error (failure).
func result(err error) string {
	if err != nil {
		return failure(err)
	}
	return "ok"
}

// failure prints an API error as its status and body (API-1), any other
// error as is.
func failure(err error) string {
	var ue api.UnexpectedResponseError
	if errors.As(err, &ue) {
		return fmt.Sprintf("%d %s", ue.StatusCode(), body(ue.Body()))
	}
	return "error: " + err.Error()
}

// body is a response body as it prints: quoted if it has a newline or tab.
func body(s string) string {
	if strings.ContainsAny(s, "\n\t") {
		return strconv.Quote(s)
	}
	return s
}

// allocID resolves an alloc argument: an alloc's name, a label or an ID.
func (e *agentEnv) allocID(ref string) string {
	if a := e.a.srv.AllocByName(ref); a != nil {
		return a.ID
	}
	if id, ok := e.ids.id(ref); ok {
		return id
	}
	return ref
}

// arg returns the value of key, or def if the directive does not give it.
func arg(t *testing.T, d *datadriven.TestData, key, def string) string {
	t.Helper()
	a, ok := d.Arg(key)
	if !ok {
		return def
	}
	return a.SingleVal(t)
}

// mustArg returns the value of key, which the directive must give.
func mustArg(t *testing.T, d *datadriven.TestData, key string) string {
	t.Helper()
	a, ok := d.Arg(key)
	if !ok {
		d.Fatalf(t, "%s: missing argument %s", d.Cmd, key)
	}
	return a.SingleVal(t)
}

// onlyArgs fails on an argument the command does not take.
func onlyArgs(t *testing.T, d *datadriven.TestData, keys ...string) {
	t.Helper()
	for _, a := range d.CmdArgs {
		if !slices.Contains(keys, a.Key) {
			d.Fatalf(t, "%s: unknown argument %q (takes %s)", d.Cmd, a.Key, strings.Join(keys, ", "))
		}
	}
}

// uuidPattern matches an ID in output: a UUID, lower case.
var uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// isUUID reports whether s is one well-formed UUID.
func isUUID(s string) bool {
	return len(s) == 36 && uuidPattern.MatchString(strings.ToLower(s))
}

// idLabels prints IDs as labels.
type idLabels struct {
	label map[string]string // ID -> label
	ids   map[string]string // label -> ID
	n     int               // UUIDs labelled <idN>
}

// set labels id, unless it has a label already.
func (l *idLabels) set(id, label string) {
	if l.label == nil {
		l.label, l.ids = map[string]string{}, map[string]string{}
	}
	if _, ok := l.label[id]; ok {
		return
	}
	for n := 2; l.ids[label] != ""; n++ {
		label = fmt.Sprintf("%s#%d>", strings.TrimSuffix(label, ">"), n)
	}
	l.label[id], l.ids[label] = label, id
}

// id is the ID of label.
func (l *idLabels) id(label string) (string, bool) {
	id, ok := l.ids[label]
	return id, ok
}

// redact replaces every alloc ID, the node ID and every other UUID in s
// by its label.
func (l *idLabels) redact(a *Agent, s string) string {
	if a == nil {
		return s
	}
	l.set(a.NodeID(), "<node>")
	for _, al := range a.srv.Allocs() {
		l.set(al.ID, "<"+al.Name+">")
	}
	return uuidPattern.ReplaceAllStringFunc(s, func(id string) string {
		if label, ok := l.label[id]; ok {
			return label
		}
		l.n++
		l.set(id, fmt.Sprintf("<id%d>", l.n))
		return l.label[id]
	})
}

// within is run-until's bound: within=, else 10 s.
func within(t *testing.T, d *datadriven.TestData) time.Duration {
	t.Helper()
	v := arg(t, d, "within", "10s")
	w, err := time.ParseDuration(v)
	if err != nil {
		d.Fatalf(t, "within: %v", err)
	}
	return w
}
