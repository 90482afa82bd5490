package agent_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// TestInMemoryTransport checks what the handler sees and what the caller
// gets back.
func TestInMemoryTransport(t *testing.T) {
	var seen *http.Request
	var seenBody string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r
		b, _ := io.ReadAll(r.Body)
		seenBody = string(b)
		w.Header().Set("X-Before", "1")
		w.WriteHeader(http.StatusTeapot)
		w.Header().Set("X-After", "1") // too late, as on a real connection
		_, _ = io.WriteString(w, "short and stout")
	})
	req, err := http.NewRequest(http.MethodPut, "http://agent/v1/x?y=1", strings.NewReader("body"))
	must.NoError(t, err)
	resp, err := agent.InMemoryTransport(h).RoundTrip(req)
	must.NoError(t, err)
	must.EqOp(t, "/v1/x?y=1", seen.RequestURI)
	must.EqOp(t, "body", seenBody)
	must.EqOp(t, http.StatusTeapot, resp.StatusCode)
	must.EqOp(t, "418 I'm a teapot", resp.Status)
	must.EqOp(t, "1", resp.Header.Get("X-Before"))
	must.EqOp(t, "", resp.Header.Get("X-After"))
	must.EqOp(t, int64(15), resp.ContentLength)
	must.EqOp(t, "15", resp.Header.Get("Content-Length"))
	must.EqOp(t, req, resp.Request)
	b, err := io.ReadAll(resp.Body)
	must.NoError(t, err)
	must.EqOp(t, "short and stout", string(b))

	// No body, nothing written: 200, empty, and the handler got NoBody.
	req, err = http.NewRequest(http.MethodGet, "http://agent/", nil)
	must.NoError(t, err)
	resp, err = agent.InMemoryTransport(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		must.NotNil(t, r.Body)
		must.EqOp(t, "agent", r.Host)
	})).RoundTrip(req)
	must.NoError(t, err)
	must.EqOp(t, http.StatusOK, resp.StatusCode)
	must.EqOp(t, int64(0), resp.ContentLength)
}

func TestInMemoryTransportErrors(t *testing.T) {
	called := false
	tr := agent.InMemoryTransport(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { called = true }))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, "http://agent/v1/jobs", strings.NewReader("{}"))
	must.NoError(t, err)
	_, err = tr.RoundTrip(req)
	must.EqError(t, err, "in-memory round trip PUT /v1/jobs: context canceled")
	must.False(t, called)

	_, err = tr.RoundTrip(nil)
	must.EqError(t, err, "in-memory round trip: request or its URL is nil")

	// Through the official client the context error surfaces too.
	r := newRig(t, agent.Config{})
	q := (&api.QueryOptions{}).WithContext(ctx)
	_, _, err = r.api.Allocations().Info(allocLocal, q)
	must.ErrorIs(t, err, context.Canceled)
}

// TestConcurrentRequests exercises the handler from many goroutines (run
// with -race): it keeps no state between requests.
func TestConcurrentRequests(t *testing.T) {
	r := newRig(t, agent.Config{})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if i%2 == 0 {
					_, _, err := r.api.Allocations().Info(allocLocal, nil)
					must.NoError(t, err)
					continue
				}
				must.NoError(t, r.api.Allocations().SetPauseState(&api.Allocation{ID: allocRemote}, nil, "app", "run"))
			}
		}()
	}
	wg.Wait()
	must.SliceLen(t, 80, r.remote.Calls())
}
