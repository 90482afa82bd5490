package sim

import (
	"strconv"

	"github.com/allocsim/allocsim/internal/allocjson"
	"github.com/allocsim/allocsim/sim/trace"
)

// The trace encodings of the observed alloc records, by hand as
// json.Marshal writes them (trace.Encode; TestEncodeIsMarshal).

func (s allocStatus) AppendJSON(b []byte, ok bool) ([]byte, bool) {
	b = trace.AppendField(append(b, '{'), "client_status", true)
	b, ok = allocjson.AppendString(b, s.ClientStatus, ok)
	b, ok = trace.AppendNonEmpty(b, ok, "description", s.Description)
	return append(b, '}'), ok
}

func (s taskStatus) AppendJSON(b []byte, ok bool) ([]byte, bool) {
	b = trace.AppendField(append(b, '{'), "state", true)
	b, ok = allocjson.AppendString(b, s.State, ok)
	if s.Failed {
		b = append(trace.AppendField(b, "failed", false), "true"...)
	}
	if s.Restarts != 0 {
		b = strconv.AppendUint(trace.AppendField(b, "restarts", false), s.Restarts, 10)
	}
	b, ok = trace.AppendNonEmpty(b, ok, "paused", s.Paused, "started_at", s.StartedAt, "finished_at", s.FinishedAt)
	return append(b, '}'), ok
}

func (e taskEvent) AppendJSON(b []byte, ok bool) ([]byte, bool) {
	b = trace.AppendField(append(b, '{'), "time", true)
	b, ok = allocjson.AppendString(b, e.Time, ok)
	b, ok = trace.AppendNonEmpty(b, ok, "display", e.Display, "message", e.Message)
	if e.FailsTask {
		b = append(trace.AppendField(b, "fails_task", false), "true"...)
	}
	if len(e.Details) > 0 {
		b = trace.AppendField(b, "details", false)
		b, ok = allocjson.AppendStringMap(b, e.Details, ok)
	}
	return append(b, '}'), ok
}
