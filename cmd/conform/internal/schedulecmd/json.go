package schedulecmd

import (
	"encoding/json"
	"io"
	"time"
)

// jsonReport is the --json object. Field order is the documented one.
type jsonReport struct {
	Inside      bool         `json:"inside"`
	WindowStart *string      `json:"window_start"`
	WindowEnd   *string      `json:"window_end"`
	NextStart   *string      `json:"next_start"`
	NextEnd     *string      `json:"next_end"`
	Windows     []jsonWindow `json:"windows,omitzero"`
}

type jsonWindow struct {
	Start *string `json:"start"`
	End   *string `json:"end"`
}

// instant is t in UTC as RFC 3339 with a trailing Z, nil (null) when zero.
func instant(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339Nano)
	return &s
}

// writeJSON prints exactly one object on one line. "windows" is present
// (possibly []) only when --next was given.
func writeJSON(w io.Writer, rep report) error {
	res := rep.result
	out := jsonReport{
		Inside:    res.Inside,
		NextStart: instant(res.NextStart),
		NextEnd:   instant(res.NextEnd),
	}
	if res.Inside {
		out.WindowStart, out.WindowEnd = instant(res.WindowStart), instant(res.WindowEnd)
	}
	if rep.listNext {
		out.Windows = make([]jsonWindow, 0, len(rep.windows))
		for _, win := range rep.windows {
			out.Windows = append(out.Windows, jsonWindow{Start: instant(win.Start), End: instant(win.End)})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
