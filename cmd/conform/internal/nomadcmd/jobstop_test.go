package nomadcmd

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/shoenig/test/must"
)

// stopCall is one DELETE /v1/job/<id> the fake agent received.
type stopCall struct {
	ID, Purge, Namespace string
}

// deregisterAgent fakes the agent's DELETE /v1/job/<id> (Nomad's "Stop a
// Job" endpoint; the dev agent's is impl/agent's): it records each call
// and answers with evalID, or with status and body when status is set.
// Anything else is a 404.
type deregisterAgent struct {
	evalID string
	status int
	body   string

	mu    sync.Mutex
	calls []stopCall
}

func (f *deregisterAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, ok := strings.CutPrefix(r.URL.EscapedPath(), "/v1/job/")
	id, err := url.PathUnescape(raw)
	if !ok || err != nil || r.Method != http.MethodDelete || strings.Contains(raw, "/") {
		http.NotFound(w, r) // a job ID's slash comes escaped
		return
	}
	f.mu.Lock()
	f.calls = append(f.calls, stopCall{ID: id, Purge: r.URL.Query().Get("purge"), Namespace: r.URL.Query().Get("namespace")})
	f.mu.Unlock()
	if f.status != 0 {
		http.Error(w, f.body, f.status)
		return
	}
	w.Header().Set("X-Nomad-Index", "7")
	_ = json.NewEncoder(w).Encode(map[string]any{"EvalID": f.evalID, "EvalCreateIndex": 7, "JobModifyIndex": 7, "Index": 7})
}

func (f *deregisterAgent) serve(t *testing.T) string {
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return srv.URL
}

func (f *deregisterAgent) received() []stopCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]stopCall(nil), f.calls...)
}

func jobStop(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.Report(&stderr, "job stop", JobStop("job stop", args, &stdout, &stderr))
	return code, stdout.String(), stderr.String()
}

func TestStop(t *testing.T) {
	cases := []struct {
		name, id string
		args     []string
		purge    string
		want     string
	}{
		{"stop", "sleeper", []string{"sleeper"}, "false", `Job "sleeper" stopped: evaluation ` + evalID + "\n"},
		{"purge", "sleeper", []string{"-purge", "sleeper"}, "true", `Job "sleeper" stopped and purged: evaluation ` + evalID + "\n"},
		{"a dispatched child", "sweep/dispatch-1-abcd0123", []string{"sweep/dispatch-1-abcd0123"}, "false",
			`Job "sweep/dispatch-1-abcd0123" stopped: evaluation ` + evalID + "\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := &deregisterAgent{evalID: evalID}
			addr := f.serve(t)
			code, stdout, stderr := jobStop(append([]string{"-address", addr}, tc.args...)...)
			must.Eq(t, 0, code, must.Sprint(stderr))
			must.Eq(t, "", stderr)
			must.Eq(t, tc.want, stdout)
			calls := f.received()
			must.Len(t, 1, calls)
			must.Eq(t, stopCall{ID: tc.id, Purge: tc.purge}, calls[0])
		})
	}
}

// TestStopNoEvaluation: an agent that creates no evaluation (Nomad's for
// a parameterized or periodic job) is still a stop.
func TestStopNoEvaluation(t *testing.T) {
	addr := (&deregisterAgent{}).serve(t)
	code, stdout, stderr := jobStop("-address", addr, "sweep")
	must.Eq(t, 0, code, must.Sprint(stderr))
	must.Eq(t, `Job "sweep" stopped (no evaluation)`+"\n", stdout)
}

// TestStopRefused: the agent's error, verbatim through the official
// client, exits 1; so does no agent at all.
func TestStopRefused(t *testing.T) {
	addr := (&deregisterAgent{status: http.StatusNotFound, body: `job not found: "nope"`}).serve(t)
	code, stdout, stderr := jobStop("-address", addr, "nope")
	must.Eq(t, 1, code)
	must.Eq(t, "", stdout)
	must.Eq(t, `conform job stop: stopping job "nope": Unexpected response code: 404 (job not found: "nope")`+"\n", stderr)

	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	code, _, stderr = jobStop("-address", closed.URL, "sleeper")
	must.Eq(t, 1, code)
	must.StrHasPrefix(t, `conform job stop: stopping job "sleeper": `, stderr)
	must.StrContains(t, stderr, "connection refused")
}

func TestStopUsage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{nil, "job stop takes exactly one argument, the job ID; got 0"},
		{[]string{"a", "b"}, "job stop takes exactly one argument, the job ID; got 2"},
		{[]string{""}, "the job ID is empty"},
		{[]string{"-force", "a"}, "flag provided but not defined: -force"},
	}
	for _, tc := range cases {
		code, stdout, stderr := jobStop(tc.args...)
		must.Eq(t, 2, code)
		must.Eq(t, "", stdout)
		must.Eq(t, "conform job stop: "+tc.want+"\nRun 'conform job stop --help' for usage.\n", stderr)
	}
}

func TestStopHelp(t *testing.T) {
	code, stdout, stderr := jobStop("--help")
	must.Eq(t, 0, code, must.Sprint(stderr))
	must.StrContains(t, stdout, "conform job stop [options] JOB")
	var o stopOptions
	newStopFlagSet("job stop", &o).VisitAll(func(fl *flag.Flag) {
		must.StrContains(t, stdout, "  -"+fl.Name)
	})
}
