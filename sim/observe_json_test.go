package sim

import (
	"encoding/json"
	"testing"

	"github.com/allocsim/allocsim/sim/trace"
	"pgregory.net/rapid"
)

// jsonText draws strings json.Marshal escapes in every way.
// Mostly strings the hand encoders write (one they do not sends the
// whole value to json.Marshal).
var jsonText = rapid.Custom(func(t *rapid.T) string {
	if rapid.IntRange(0, 9).Draw(t, "exotic") > 0 {
		return rapid.SampledFrom([]string{"", "running", "a b", `"q"`, `back\slash`, "<a>&", "line\nfeed\r\t"}).Draw(t, "text")
	}
	return rapid.OneOf(rapid.SampledFrom([]string{"\x00\x7f", "é", "\xff", "\u2028"}), rapid.String()).Draw(t, "text")
})

// TestObservedRecordsEncodeAsMarshal: the observed alloc records'
// hand encodings are json.Marshal's.
func TestObservedRecordsEncodeAsMarshal(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var v any
		switch rapid.IntRange(0, 2).Draw(rt, "type") {
		case 0:
			v = allocStatus{ClientStatus: jsonText.Draw(rt, "status"), Description: jsonText.Draw(rt, "description")}
		case 1:
			v = taskStatus{State: jsonText.Draw(rt, "state"), Failed: rapid.Bool().Draw(rt, "failed"),
				Restarts: rapid.Uint64Range(0, 3).Draw(rt, "restarts"), Paused: jsonText.Draw(rt, "paused"),
				StartedAt: jsonText.Draw(rt, "started"), FinishedAt: jsonText.Draw(rt, "finished")}
		default:
			e := taskEvent{Time: jsonText.Draw(rt, "time"), Display: jsonText.Draw(rt, "display"),
				Message: jsonText.Draw(rt, "message"), FailsTask: rapid.Bool().Draw(rt, "fails")}
			switch rapid.IntRange(0, 2).Draw(rt, "details") {
			case 1:
				e.Details = map[string]string{}
			case 2:
				e.Details = rapid.MapOf(jsonText, jsonText).Draw(rt, "details")
			}
			v = e
		}
		want, err := json.Marshal(v)
		if err != nil {
			rt.Fatal(err)
		}
		if got := trace.Encode(v); string(got) != string(want) {
			rt.Fatalf("Encode(%#v) = %s, json.Marshal = %s", v, got, want)
		}
	})
}
