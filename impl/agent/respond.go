package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// The texts SPEC §5 fixes exactly.
const (
	// MsgInvalidMethod is API-1's 405 body.
	MsgInvalidMethod = "Invalid method"
	// FmtDecodeBody is the 400 body of a malformed request body (API-2,
	// API-6; also used by API-4).
	FmtDecodeBody = "Failed to decode body: %v"
	// MsgInvalidScheduleState is API-2's 400 for an unknown ScheduleState.
	MsgInvalidScheduleState = "Not a valid task schedule state"
	// MsgJobMissing is API-4's 400 for a request without a job (and
	// structs.MsgJobNoID for a job without an ID).
	MsgJobMissing = "Job must be specified"
	// MsgAllocNotFound is API-5's 404 for an unknown alloc.
	MsgAllocNotFound = "alloc not found"
)

// API-7: an RPC error containing one of these is a 404, any other a 500.
var notFoundMarkers = []string{"Unknown allocation", "Unknown node", "No path to node"}

// Response headers of API-1.
const (
	headerIndex       = "X-Nomad-Index"
	headerLastContact = "X-Nomad-LastContact"
	headerKnownLeader = "X-Nomad-KnownLeader"
)

// httpError is an error served with a status other than 500.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

func badRequest(msg string) error { return &httpError{code: http.StatusBadRequest, msg: msg} }
func notFound(msg string) error   { return &httpError{code: http.StatusNotFound, msg: msg} }

// textReply is a reply served as plain text rather than JSON.
type textReply struct {
	contentType string
	body        string
}

// writeReply serves a success (API-1): 200, the index headers, and the
// reply as JSON (or text). The index is at least 1, as a blocking client
// treats index 0 as "no index" and would not wait.
func writeReply(w http.ResponseWriter, reply any, index uint64) {
	if s, ok := reply.(streamReply); ok { // a body written as it is read (fs_stream.go)
		writeStream(w, s, index)
		return
	}
	var body []byte
	contentType := "application/json"
	if t, ok := reply.(textReply); ok {
		body, contentType = []byte(t.body), t.contentType
	} else {
		b, err := json.Marshal(reply)
		if err != nil {
			writeError(w, fmt.Errorf("encode reply: %w", err))
			return
		}
		body = b
	}
	h := w.Header()
	h.Set(headerIndex, strconv.FormatUint(max(index, 1), 10))
	h.Set(headerLastContact, "0")
	h.Set(headerKnownLeader, "true")
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// writeError serves an error as plain text (API-1): an httpError with its
// status, any other error as 500.
func writeError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	var he *httpError
	if errors.As(err, &he) {
		code = he.code
	}
	msg := err.Error()
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(msg)))
	w.WriteHeader(code)
	_, _ = io.WriteString(w, msg)
}

// rpcError maps a routed RPC's error (API-7): 404 if it names an unknown
// allocation or node or no path to the node, else 500; the message as is.
func rpcError(err error) error {
	msg := err.Error()
	for _, m := range notFoundMarkers {
		if strings.Contains(msg, m) {
			return notFound(msg)
		}
	}
	return err
}

// decodeBody decodes the request's JSON body into v; an empty body leaves
// v as is (API-2). Only the first JSON value is read; unknown fields are
// ignored (DATA-1).
func decodeBody(r *http.Request, v any) error {
	return decodeJSON(r.Body, v)
}

// decodeJSON is decodeBody on a reader; nil is an empty body.
func decodeJSON(body io.Reader, v any) error {
	if body == nil {
		return nil
	}
	err := json.NewDecoder(body).Decode(v)
	if err == nil || errors.Is(err, io.EOF) {
		return nil
	}
	return badRequest(fmt.Sprintf(FmtDecodeBody, err))
}

// queryBool parses an optional bool query parameter; absent is false.
func queryBool(r *http.Request, name string) (bool, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, badRequest(fmt.Sprintf("Failed to parse value of %q (%v) as a bool: %v", name, v, err))
	}
	return b, nil
}
