package agent_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/google/go-cmp/cmp"
)

var handlerSeeds = []struct{ method, path, body string }{
	{"PUT", "/v1/jobs", `{"Job":{"ID":"web","TaskGroups":[{"Name":"g","Tasks":[{"Name":"t","Schedule":{"Cron":{"Start":"0 9 * * * *","End":"0 17"}}}]}]}}`},
	{"POST", "/v1/jobs?namespace=x", `{"Job":{"ID":"w","TaskGroups":[{"RestartPolicy":{"Mode":"x"},"Tasks":[null,{"Schedule":{}}]},null]}}`},
	{"PUT", "/v1/jobs", `{"Job":`},
	{"GET", "/v1/jobs", ``},
	{"GET", "/v1/job/web/allocations?all=true", ``},
	{"GET", "/v1/job/web/allocations?all=x", ``},
	{"GET", "/v1/allocation/" + allocLocal, ``},
	{"GET", "/v1/allocations?prefix=a", ``},
	{"PUT", "/v1/client/allocation/" + allocLocal + "/pause", `{"Task":"app","ScheduleState":"pause"}`},
	{"POST", "/v1/client/allocation/" + allocRemote + "/pause", `{"Task":"app","ScheduleState":"scheduled"}`},
	{"GET", "/v1/client/allocation/" + allocGone + "/pause?task=app", ``},
	{"PUT", "/v1/client/allocation/x/signal", `{"Signal":"SIGHUP"}`},
	{"DELETE", "/v1/client/allocation/x/pause", ``},
	{"GET", "/v1/metrics?format=prometheus", ``},
	{"GET", "/v1/metrics", ``},
	{"PUT", "/v1/system/gc", ``},
	{"GET", "/v1/client/allocation/x/../pause", ``},
	{"GET", "//v1//", ``},
	{"", "v1/jobs", ``},
}

// FuzzHandler: any method, path and body gets one of the API's statuses
// (never a redirect), never a panic; successes carry the API-1 headers and valid JSON (or the
// metrics text); 405s say `Invalid method`.
func FuzzHandler(f *testing.F) {
	for _, s := range handlerSeeds {
		f.Add(s.method, s.path, s.body)
	}
	f.Fuzz(func(t *testing.T, method, path, body string) {
		r := newRig(t, agent.Config{Profile: schedule.ProfileCE})
		u, err := url.Parse(path)
		if err != nil {
			u = &url.URL{Path: path}
		}
		req := &http.Request{Method: method, URL: u, Header: http.Header{},
			Body: io.NopCloser(strings.NewReader(body))}
		rec := httptest.NewRecorder()
		r.h.ServeHTTP(rec, req)
		status := rec.Code
		allowed := []int{http.StatusOK, http.StatusBadRequest, http.StatusNotFound,
			http.StatusMethodNotAllowed, http.StatusInternalServerError, http.StatusNotImplemented}
		if !slices.Contains(allowed, status) {
			t.Fatalf("%s %q: status %d, want one of %v", method, path, status, allowed)
		}
		out := rec.Body.Bytes()
		switch status {
		case http.StatusOK:
			if rec.Header().Get("X-Nomad-Index") == "" || rec.Header().Get("X-Nomad-KnownLeader") != "true" {
				t.Fatalf("%s %q: success without API-1 headers: %v", method, path, rec.Header())
			}
			if rec.Header().Get("Content-Type") == "application/json" && !json.Valid(out) {
				t.Fatalf("%s %q: invalid JSON %q", method, path, out)
			}
		case http.StatusMethodNotAllowed:
			if string(out) != agent.MsgInvalidMethod {
				t.Fatalf("%s %q: 405 body %q", method, path, out)
			}
		default:
			if len(out) == 0 {
				t.Fatalf("%s %q: %d without a message", method, path, status)
			}
		}
	})
}

// FuzzDecodeJobRegister: the job decoder never panics; an accepted job
// has an ID and is canonicalized, survives the API conversion and its JSON
// unchanged, and validates without panicking; a rejection is a 400 text.
func FuzzDecodeJobRegister(f *testing.F) {
	for _, s := range handlerSeeds {
		if strings.HasPrefix(s.body, `{"Job"`) {
			f.Add(s.body)
		}
	}
	f.Add(`{"Job":{"ID":"x","Type":"batch","TaskGroups":[{"Count":0,"Volumes":{"a":null},"Tasks":[{"Config":{"a":[1,{"b":null}]},"VolumeMounts":[null,{}],"Lifecycle":{}}]}]}}`)
	f.Add(``)
	f.Fuzz(func(t *testing.T, body string) {
		job, err := agent.DecodeJobRegister(strings.NewReader(body), "ns")
		if err != nil {
			msg := err.Error()
			if msg != agent.MsgJobMissing && msg != structs.MsgJobNoID && !strings.HasPrefix(msg, "Failed to decode body: ") {
				t.Fatalf("unexpected rejection %q", msg)
			}
			return
		}
		if job.ID == "" || job.Namespace == "" || job.Type == "" {
			t.Fatalf("accepted job not canonical: %+v", job)
		}
		if d := cmp.Diff(job, apiconv.JobFromAPI(apiconv.JobToAPI(job))); d != "" {
			t.Fatalf("API round trip differs (-want +got):\n%s", d)
		}
		b, err := json.Marshal(map[string]any{"Job": apiconv.JobToAPI(job)})
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		again, err := agent.DecodeJobRegister(bytes.NewReader(b), "other")
		if err != nil {
			t.Fatalf("re-decode %s: %v", b, err)
		}
		if d := cmp.Diff(job, again); d != "" {
			t.Fatalf("JSON round trip differs (-want +got):\n%s", d)
		}
		for _, p := range []schedule.Profile{schedule.ProfileCE, schedule.ProfileEnt} {
			_ = agent.ValidateJob(job, p)
		}
	})
}
