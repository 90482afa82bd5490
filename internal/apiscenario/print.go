package apiscenario

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/nomad/api"
)

// Result is a call's output: ok, or its error (Failure).
func Result(err error) string {
	if err != nil {
		return Failure(err)
	}
	return "ok"
}

// Failure prints an API error as its status and body (API-1), any other
// error as is.
func Failure(err error) string {
	var ue api.UnexpectedResponseError
	if errors.As(err, &ue) {
		return fmt.Sprintf("%d %s", ue.StatusCode(), Body(ue.Body()))
	}
	return "error: " + err.Error()
}

// Body is a response body as it prints: quoted if it has a newline or tab.
func Body(s string) string {
	if strings.ContainsAny(s, "\n\t") {
		return strconv.Quote(s)
	}
	return s
}

// StubLines prints alloc stubs, one a line, "<ID> <name> <fields>" with
// fields printing the rest of a stub; [] for none, null for nil.
func StubLines(stubs []*api.AllocationListStub, fields func(*api.AllocationListStub) string) string {
	if stubs == nil {
		return "null"
	}
	if len(stubs) == 0 {
		return "[]"
	}
	var out []string
	for _, s := range stubs {
		out = append(out, s.ID+" "+s.Name+" "+fields(s))
	}
	return strings.Join(out, "\n")
}

// PauseState prints a task's pause state as get-pause reads it (API-3):
// as is, the empty state as "".
func PauseState(s string) string {
	if s == "" {
		return `""`
	}
	return s
}
