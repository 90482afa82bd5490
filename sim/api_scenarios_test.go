package sim_test

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/allocsim/allocsim/internal/apiscenario"
	"github.com/cockroachdb/datadriven"
)

// TestAPIScenarios runs the API scenarios under testdata/api (project
// issues 6, 14 and 24). Each file is one scenario and its expected
// output: the reference runner in a simulated World, driven through the
// official Go client (github.com/hashicorp/nomad/api) over
// agent.InMemoryTransport, on virtual time only. Rewrite the expected
// output with
//
//	go test ./sim/ -run '^TestAPIScenarios$' -rewrite
//
// and read the diff.
//
// Every file runs twice, once per routing (API-7): "local", where the
// agent's own client is the world's client, and "forwarded", where the
// agent has no client and every pause, signal and restart request is a
// server RPC forwarded over the simulated network. Each run has a
// testing/synctest bubble of its own. Where both runs print the same, the
// output is printed once; where they differ, each run's output is
// printed under its routing's name:
//
//	local: scheduled_pause
//	forwarded: 404 No path to node
//
// An API call runs in a goroutine of its own while the world advances:
// a call that reaches a driver is held at the world's gate and released
// on the world's loop, as the world's own scenario calls are; a call
// returns at the instant it was made unless it needs the clock.
//
// # Output conventions
//
// Times are the virtual time of day in UTC, "15:04:05.000", with all
// nine decimals when the instant is not a whole millisecond. IDs never
// print: an alloc's ID prints as its name in angle brackets
// (<web.g[0]>), the node's as <node>, any other UUID (evaluations) as
// <id1>, <id2>, ... in order of first appearance, but the nil UUID
// (00000000-...), which names no alloc; a command argument may use these
// forms. An API error prints as its HTTP status and body (API-1:
// `Unexpected response code: <code> (<body>)`), the body quoted when it
// has a newline or tab. These conventions, and the parts of the
// vocabulary the dev agent's scenarios share (register's job lines,
// run-until's conditions, events, metrics), are internal/apiscenario's.
//
// # Commands
//
// The world (api_handle_world_test.go):
//
//	start seed=<n> duration=<d>
//	<fault plan line>...
//	    builds and starts the world (at 12:55 UTC on 2024-06-14, 08:55 in
//	    New York; local zone Europe/Berlin) with the fault plan
//	    of the input (faults.ParsePlan's format), and an agent of profile
//	    ent in front of it; prints the time.
//	advance to=<15:04[:05]> | by=<d>
//	    advances the world; prints the time reached.
//	run-until alloc=<alloc> [task=<task>] [status=<s>|(<s>, ...)]
//	          [state=<task state>] [events=<n> [type=<event type>]] within=<d>
//	    advances until the server's view of the alloc meets every
//	    condition given (status: the client status is one of those;
//	    events: at least n events of the task, of that type if given), at
//	    most within of virtual time; prints when.
//	forwards
//	    the client RPCs the simulated network forwarded (API-7), by method.
//	network
//	    whether the simulated network is partitioned or connected.
//	close
//	    ends the run; prints the world's violations, or ok.
//	replay [seed=<n>]
//	    (after close, last in the file) runs every command of the file
//	    again in a bubble of its own, with another seed if given, and
//	    says whether the trace, the API transcript and the set of
//	    endpoints served are byte-identical to this run's (DET-4).
//
// Jobs (api_handle_jobs_test.go):
//
//	register [job=<id>] [type=service|batch] [profile=ce]
//	         [restart=(<attempts>, <interval>, <delay>, <mode>)]
//	<task> [driver=<driver>] [schedule=(<start>, <end>, <zone>)] [<config key>=<value>]...
//	    registers a job of one group "g" of one alloc, one task per input
//	    line (driver mock_driver unless given; a value in parentheses is a
//	    list, a whole number a number), through an agent of profile ce if
//	    asked; no job= registers an empty job.
//	allocs job=<id> [all]
//	job job=<id>
//	job-evals job=<id>
//	deregister job=<id>
//	eval id=<eval>
//
// Allocs (api_handle_allocs_test.go), <alloc> being a name or an ID:
//
//	info alloc=<alloc> [meta] [region=<r>] [namespace=<ns>]
//	events alloc=<alloc> [task=<task>]
//	    the task events not printed before, per task.
//	prefix-list prefix=<prefix>
//	get-pause alloc=<alloc> task=<task> [region=<r>] [namespace=<ns>]
//	pause alloc=<alloc> task=<task> state=pause|run|scheduled
//	signal alloc=<alloc> [task=<task>] signal=<signal>
//	restart alloc=<alloc> [task=<task>]
//	stop alloc=<alloc>
//
// HTTP (api_handle_http_test.go):
//
//	raw <method> <path> [ids]
//	<body>
//	    one request as is; {<alloc>} in the path is the alloc's ID,
//	    {<alloc>:<n>} its first n characters; ids prints only the IDs
//	    the body names.
//	metrics [suffix=<suffix>]
//	    /v1/metrics?format=prometheus: "<family> <hook_name> <value>",
//	    under the labels every series has besides hook_name.
//	endpoints
//	    every SPEC §5 endpoint served so far, by method and path pattern.
func TestAPIScenarios(t *testing.T) {
	apiscenario.Walk(t, "./sim/", "testdata/api", func(t *testing.T, name, path string) {
		script := readScript(t, path)
		outs := make([][]string, len(routings))
		for i, route := range routings {
			outs[i] = runScript(t, name, route, script)
		}
		n := 0
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if n >= len(script) || script[n].Pos != d.Pos {
				t.Fatalf("%s: the file changed while it ran", d.Pos)
			}
			out := mergeRoutes(outs, n)
			n++
			return out
		})
	})
}

// readScript parses the file's directives without running them.
func readScript(t *testing.T, path string) []datadriven.TestData {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var script []datadriven.TestData
	datadriven.RunTestFromStringAny(quietT{t}, string(b), func(_ testing.TB, d *datadriven.TestData) string {
		c := *d
		c.Pos = path + strings.TrimPrefix(c.Pos, "<string>")
		script = append(script, c)
		return d.Expected
	})
	return script
}

// quietT is a T that does not log: reading a script echoes nothing
// under -v (running it does).
type quietT struct{ *testing.T }

func (quietT) Logf(string, ...any) {}

// runScript runs script for one routing, in a bubble of its own, and
// returns each directive's output; each replay directive runs the script
// again in another bubble.
func runScript(t *testing.T, name string, route routing, script []datadriven.TestData) []string {
	t.Helper()
	outs := make([]string, len(script))
	var first runRecord
	synctest.Test(t, func(t *testing.T) {
		e := newAPIEnv(t, name, route, 0)
		for i := range script {
			if script[i].Cmd != "replay" {
				outs[i] = e.handle(&script[i])
			}
		}
		first = e.finish()
	})
	for i := range script {
		d := &script[i]
		if d.Cmd != "replay" {
			continue
		}
		if j := slices.IndexFunc(script[i:], func(d datadriven.TestData) bool { return d.Cmd != "replay" }); j >= 0 {
			t.Fatalf("%s: replay must come last, after close", d.Pos)
		}
		var seed uint64
		if d.HasArg("seed") {
			d.ScanArgs(t, "seed", &seed)
		}
		var again runRecord
		synctest.Test(t, func(t *testing.T) {
			e := newAPIEnv(t, name, route, seed)
			for j := range script[:i] {
				if script[j].Cmd != "replay" {
					e.handle(&script[j])
				}
			}
			again = e.finish()
		})
		outs[i] = compareRuns(t, first, again)
	}
	return outs
}

// runRecord is what replay compares of a run.
type runRecord struct {
	trace      []byte
	transcript []string
	endpoints  []string
}

// compareRuns says whether two runs are byte-identical, and logs the
// first difference.
func compareRuns(t *testing.T, a, b runRecord) string {
	t.Helper()
	var out []string
	if bytes.Equal(a.trace, b.trace) {
		out = append(out, "trace: identical")
	} else {
		out = append(out, "trace: differs")
		t.Logf("traces differ: %s", firstDifference(strings.Split(string(a.trace), "\n"), strings.Split(string(b.trace), "\n")))
	}
	if d := firstDifference(a.transcript, b.transcript); d == "" {
		out = append(out, "transcript: identical")
	} else {
		out = append(out, "transcript: differs")
		t.Logf("API transcripts differ: %s", d)
	}
	if slices.Equal(a.endpoints, b.endpoints) {
		out = append(out, "endpoints: identical")
	} else {
		out = append(out, "endpoints: differ")
	}
	return strings.Join(out, "\n")
}

// firstDifference describes the first line where a and b differ, or "".
func firstDifference(a, b []string) string {
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  first:  %s\n  second: %s", i+1, x, y)
		}
	}
	return ""
}

// mergeRoutes is directive i's output: once if every routing printed the
// same, else each routing's under its name.
func mergeRoutes(outs [][]string, i int) string {
	same := true
	oneLine := true
	for r := range outs {
		same = same && outs[r][i] == outs[0][i]
		oneLine = oneLine && !strings.Contains(strings.TrimSuffix(outs[r][i], "\n"), "\n")
	}
	if same {
		return outs[0][i]
	}
	var b strings.Builder
	for r, route := range routings {
		out := strings.TrimSuffix(outs[r][i], "\n")
		if oneLine {
			fmt.Fprintf(&b, "%s: %s\n", route, out)
			continue
		}
		fmt.Fprintf(&b, "%s:\n", route)
		for _, line := range strings.Split(out, "\n") {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	}
	return b.String()
}
