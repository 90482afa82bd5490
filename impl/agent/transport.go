package agent

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/hashicorp/nomad/api"
)

// InMemoryAddress is the agent address NewAPIClient gives the official
// client; InMemoryTransport ignores scheme and host.
const InMemoryAddress = "http://agent"

// InMemoryTransport is an http.RoundTripper that serves each request by
// calling h directly, in the caller's goroutine: no sockets, no timers,
// nothing asynchronous, so a simulation stays deterministic. The handler
// sees a server-side copy of the request (RequestURI set, a non-nil Body);
// the response carries the status, headers and body h wrote, with
// ContentLength set. A request whose context is already done fails with
// the context's error; a nil request is an error.
func InMemoryTransport(h http.Handler) http.RoundTripper {
	return roundTripper{h: h}
}

// NewAPIClient returns the official Go client talking to h through
// InMemoryTransport.
func NewAPIClient(h http.Handler) (*api.Client, error) {
	return api.NewClient(&api.Config{
		Address:    InMemoryAddress,
		HttpClient: &http.Client{Transport: InMemoryTransport(h)},
	})
}

type roundTripper struct{ h http.Handler }

func (t roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req == nil || req.URL == nil {
		return nil, fmt.Errorf("in-memory round trip: request or its URL is nil")
	}
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, fmt.Errorf("in-memory round trip %s %s: %w", req.Method, req.URL.Path, err)
	}
	in := req.Clone(ctx)
	in.RequestURI = req.URL.RequestURI()
	if in.Body == nil {
		in.Body = http.NoBody
	}
	if in.Host == "" {
		in.Host = req.URL.Host
	}
	rec := &recorder{header: http.Header{}}
	t.h.ServeHTTP(rec, in)
	_ = in.Body.Close()
	status := rec.status
	if status == 0 {
		status = http.StatusOK
	}
	body := rec.body.Bytes()
	header := rec.snapshot
	if header == nil {
		header = rec.header.Clone()
	}
	header.Set("Content-Length", strconv.Itoa(len(body)))
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", status, http.StatusText(status)),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        header,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}, nil
}

// recorder is the in-memory http.ResponseWriter: the first WriteHeader
// (or Write) fixes the status; headers set after it are ignored, as on a
// real connection.
type recorder struct {
	header   http.Header
	snapshot http.Header
	status   int
	body     bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status != 0 {
		return
	}
	r.status = code
	r.snapshot = r.header.Clone()
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}
