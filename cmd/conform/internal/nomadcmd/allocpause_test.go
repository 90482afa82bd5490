package nomadcmd

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

const (
	allocA = "8ab1c2d3-1111-2222-3333-444455556666"
	allocB = "8ab1ffff-aaaa-bbbb-cccc-ddddeeeeffff"
	allocC = "12345678-9999-8888-7777-666655554444"
	node   = "0f1e2d3c-0000-0000-0000-000000000000"
)

// The official client lists a prefix's matches newest first (highest
// CreateIndex), and so does the table.

// world is a fake agent holding three allocs: A (tasks web, sidecar), B
// (task solo) sharing A's first four bytes, C (task solo).
func world(t *testing.T) (*fakeAgent, string) {
	t.Helper()
	s := &fakeAgent{}
	s.AddAlloc(
		newAlloc(allocA, node, "web", "frontend", "web", "sidecar"),
		newAlloc(allocB, node, "solo", "g", "solo"),
		newAlloc(allocC, node, "solo", "g", "solo"),
	)
	return s, serveFake(t, s, schedule.ProfileEnt)
}

// pause runs the command as the router does and returns exit code,
// stdout and stderr.
func pause(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.Report(&stderr, "alloc pause", AllocPause("alloc pause", args, &stdout, &stderr))
	return code, stdout.String(), stderr.String()
}

func failed(msg string) string { return msg + "\n" } // API-8: verbatim, no prefix

// TestPauseErrors checks every SPEC API-8 message verbatim, and that the
// checks come in SPEC's order.
func TestPauseErrors(t *testing.T) {
	srv, addr := world(t)
	srv.GetErr = nil
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no args", []string{"-address", addr}, MsgArgs},
		{"three args", []string{"-address", addr, "ab", "web", "x"}, MsgArgs},
		{"args before state", []string{"-address", addr, "-state", "nap"}, MsgArgs},
		{"bad state", []string{"-address", addr, "-state", "nap", "8ab1c2d3", "web"},
			`Pause action must be one of "pause", "run", or "scheduled" but got "nap"`},
		{"state before short ID", []string{"-address", addr, "-state", "", "8"},
			`Pause action must be one of "pause", "run", or "scheduled" but got ""`},
		{"short ID", []string{"-address", addr, "8"}, MsgShortID},
		{"no match", []string{"-address", addr, "ffff", "web"}, `No allocation(s) with prefix or id "ffff" found`},
		{"no match, odd prefix trimmed", []string{"-address", addr, "fffff", "web"}, `No allocation(s) with prefix or id "ffff" found`},
		{"several", []string{"-address", addr, "8ab1", "web"}, MsgMultipleMatch + "\n\n" +
			"ID        Node ID   Job ID  Task Group  Desired  Status\n" +
			"8ab1ffff  0f1e2d3c  solo    g           run      running\n" +
			"8ab1c2d3  0f1e2d3c  web     frontend    run      running"},
		{"several, verbose", []string{"-address", addr, "-verbose", "8ab1", "web"}, MsgMultipleMatch + "\n\n" +
			"ID                                    Node ID                               Job ID  Task Group  Desired  Status\n" +
			"8ab1ffff-aaaa-bbbb-cccc-ddddeeeeffff  0f1e2d3c-0000-0000-0000-000000000000  solo    g           run      running\n" +
			"8ab1c2d3-1111-2222-3333-444455556666  0f1e2d3c-0000-0000-0000-000000000000  web     frontend    run      running"},
		{"unknown task", []string{"-address", addr, "8ab1c2", "db"}, "Could not find task named: db, found:\nweb\nsidecar"},
		{"-task wins over the positional task", []string{"-address", addr, "-task", "db", "8ab1c2", "web"},
			"Could not find task named: db, found:\nweb\nsidecar"},
		{"no task, several in the group", []string{"-address", addr, "8ab1c2"},
			fmt.Sprintf("Allocation %q has more than one task; name one with <task> or -task, found:", allocA) + "\nweb\nsidecar"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := pause(tc.args...)
			must.Eq(t, 1, code)
			must.Eq(t, "", stdout)
			must.Eq(t, failed(tc.want), stderr)
		})
	}
	must.SliceContains(t, srv.Prefixes(), "ffff")
	must.Len(t, 0, srv.Pauses())
}

func TestPauseSetsEachState(t *testing.T) {
	srv, addr := world(t)
	cases := []struct {
		args []string
		want pauseCall
	}{
		{[]string{"8ab1c2d3", "web"}, pauseCall{AllocID: allocA, Task: "web", State: structs.TaskScheduleStateForcePause}},
		{[]string{"-state=run", "8ab1c2d3", "sidecar"}, pauseCall{AllocID: allocA, Task: "sidecar", State: structs.TaskScheduleStateForceRun}},
		{[]string{"-state", "scheduled", "-task", "web", "8ab1c2d3"}, pauseCall{AllocID: allocA, Task: "web", State: structs.TaskScheduleStateScheduleResume}},
		// A full ID with its hyphens, and a group of one task: no task needed.
		{[]string{allocC}, pauseCall{AllocID: allocC, Task: "solo", State: structs.TaskScheduleStateForcePause}},
		// Odd hex length: "1234567" is looked up as "123456".
		{[]string{"1234567"}, pauseCall{AllocID: allocC, Task: "solo", State: structs.TaskScheduleStateForcePause}},
	}
	for i, tc := range cases {
		code, stdout, stderr := pause(append([]string{"-address", addr}, tc.args...)...)
		must.Eq(t, 0, code, must.Sprint(stderr))
		must.Eq(t, "", stdout)
		must.Eq(t, "", stderr)
		got := srv.Pauses()
		must.Len(t, i+1, got)
		must.Eq(t, tc.want, got[i])
	}
	must.Eq(t, "123456", srv.Prefixes()[len(srv.Prefixes())-1])
}

func TestPauseStatus(t *testing.T) {
	srv, addr := world(t)
	srv.SetPaused(allocA, "web", structs.TaskScheduleStateForcePause)
	code, stdout, stderr := pause("-address", addr, "-status", "8ab1c2d3", "web")
	must.Eq(t, 0, code)
	must.Eq(t, "Pause state: \"force_pause\"\n", stdout)
	must.Eq(t, "", stderr)

	code, stdout, _ = pause("-address", addr, "-status", "-task=sidecar", "8ab1c2d3")
	must.Eq(t, 0, code)
	must.Eq(t, "Pause state: \"\"\n", stdout)
	must.Len(t, 0, srv.Pauses(), must.Sprint("-status must not set anything"))
}

func TestPauseAgentErrors(t *testing.T) {
	srv, addr := world(t)
	srv.GetErr = fmt.Errorf("Task not found")
	code, stdout, stderr := pause("-address", addr, "-status", "8ab1c2d3", "web")
	must.Eq(t, 1, code)
	must.Eq(t, "", stdout)
	must.Eq(t, failed("Error getting task pause state: Unexpected response code: 500 (Task not found)"), stderr)

	srv.SetErr = fmt.Errorf(`task "web" has no schedule`)
	code, _, stderr = pause("-address", addr, "8ab1c2d3", "web")
	must.Eq(t, 1, code)
	must.Eq(t, failed(`Error setting pause state: Unexpected response code: 500 (task "web" has no schedule)`), stderr)

	srv.SetErr = fmt.Errorf(`No path to node`)
	code, _, stderr = pause("-address", addr, "8ab1c2d3", "web")
	must.Eq(t, 1, code)
	must.Eq(t, failed(`Error setting pause state: Unexpected response code: 404 (No path to node)`), stderr)
}

// TestPauseQueryErrors: the prefix lookup and the alloc read both report
// `Error querying allocation: <err>`.
func TestPauseQueryErrors(t *testing.T) {
	srv, addr := world(t)
	failing := func(path string) string {
		inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == path {
				http.Error(w, "boom", http.StatusInternalServerError)
				return
			}
			proxy(w, r, addr)
		}))
		t.Cleanup(inner.Close)
		return inner.URL
	}
	code, _, stderr := pause("-address", failing("/v1/allocations"), "8ab1c2d3", "web")
	must.Eq(t, 1, code)
	must.Eq(t, failed("Error querying allocation: Unexpected response code: 500 (boom)"), stderr)

	code, _, stderr = pause("-address", failing("/v1/allocation/"+allocA), "8ab1c2d3", "web")
	must.Eq(t, 1, code)
	must.Eq(t, failed("Error querying allocation: Unexpected response code: 500 (boom)"), stderr)

	// Nothing listening.
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	code, _, stderr = pause("-address", dead.URL, "8ab1c2d3", "web")
	must.Eq(t, 1, code)
	must.StrHasPrefix(t, "Error querying allocation: ", stderr)
	must.Len(t, 0, srv.Pauses())
}

// proxy forwards r to the agent at addr (no body needed for GETs).
func proxy(w http.ResponseWriter, r *http.Request, addr string) {
	resp, err := http.Get(addr + r.URL.RequestURI())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	_, _ = w.Write(buf.Bytes())
}

// TestPauseAddress: NOMAD_ADDR is the default address, -address wins.
func TestPauseAddress(t *testing.T) {
	srv, addr := world(t)
	t.Setenv("NOMAD_ADDR", addr)
	code, _, stderr := pause("8ab1c2d3", "web")
	must.Eq(t, 0, code, must.Sprint(stderr))
	must.Len(t, 1, srv.Pauses())

	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	code, _, stderr = pause("-address", dead.URL, "8ab1c2d3", "web")
	must.Eq(t, 1, code)
	must.StrContains(t, stderr, strings.TrimPrefix(dead.URL, "http://"))
	must.Len(t, 1, srv.Pauses())
}

func TestPauseUsage(t *testing.T) {
	code, stdout, stderr := pause("-frobnicate", "8ab1")
	must.Eq(t, 2, code)
	must.Eq(t, "", stdout)
	must.StrHasPrefix(t, "conform alloc pause: flag provided but not defined: -frobnicate\n", stderr)

	code, stdout, stderr = pause("--help")
	must.Eq(t, 0, code)
	must.Eq(t, "", stderr)
	must.StrContains(t, stdout, "conform alloc pause [options] <allocation> [<task>]")
}

func TestHelpDocumentsEveryFlag(t *testing.T) {
	var o pauseOptions
	fs := newPauseFlagSet("alloc pause", &o)
	var help bytes.Buffer
	writePauseHelp(&help)
	fs.VisitAll(func(f *flag.Flag) {
		must.StrContains(t, help.String(), "  -"+f.Name)
	})
}

func TestSanitizePrefix(t *testing.T) {
	cases := map[string]string{
		"ab": "ab", "abc": "ab", "8ab1c2d3": "8ab1c2d3", "8ab1c2d3-1": "8ab1c2d3-",
		"8ab1c2d3-11": "8ab1c2d3-11", allocA: allocA, "": "",
	}
	for in, want := range cases {
		must.Eq(t, want, SanitizePrefix(in), must.Sprintf("SanitizePrefix(%q)", in))
	}
}

// TestPickTaskWithoutJob: without the job there is nothing to check the
// task against; it is passed on as given.
func TestPickTaskWithoutJob(t *testing.T) {
	got, err := pickTask(&api.Allocation{ID: allocA, TaskGroup: "g"}, "web")
	must.NoError(t, err)
	must.Eq(t, "web", got)
	got, err = pickTask(&api.Allocation{ID: allocA, TaskGroup: "nope", Job: &api.Job{}}, "")
	must.NoError(t, err)
	must.Eq(t, "", got)
}
