package transport

import (
	"encoding/json"
	"testing"

	"github.com/allocsim/allocsim/sim/trace"
	"pgregory.net/rapid"
)

// TestSummariesEncodeAsMarshal: the alloc summaries' hand encodings are
// json.Marshal's, alone and inside the traced request and reply maps.
func TestSummariesEncodeAsMarshal(t *testing.T) {
	// Mostly strings the hand encoders write (one they do not sends the
	// whole value to json.Marshal).
	text := rapid.Custom(func(t *rapid.T) string {
		if rapid.IntRange(0, 49).Draw(t, "exotic") > 0 {
			return rapid.SampledFrom([]string{"", "pending", "a b", `"q"`, `back\slash`, "<a>&", "line\nfeed"}).Draw(t, "text")
		}
		return rapid.OneOf(rapid.SampledFrom([]string{"\x01", "é", "\xff"}), rapid.String()).Draw(t, "text")
	})
	task := rapid.Custom(func(rt *rapid.T) taskSummary {
		return taskSummary{State: text.Draw(rt, "state"), Failed: rapid.Bool().Draw(rt, "failed"),
			Restarts: rapid.Uint64Range(0, 2).Draw(rt, "restarts"), Paused: text.Draw(rt, "paused"),
			Events: rapid.IntRange(0, 10).Draw(rt, "events"), Last: text.Draw(rt, "last")}
	})
	alloc := rapid.Custom(func(rt *rapid.T) allocSummary {
		s := allocSummary{ID: text.Draw(rt, "id"), ClientStatus: text.Draw(rt, "status"), DesiredStatus: text.Draw(rt, "desired"),
			AllocModifyIndex: rapid.Uint64Range(0, 3).Draw(rt, "index"), ClientDescription: text.Draw(rt, "description")}
		switch rapid.IntRange(0, 2).Draw(rt, "tasks") {
		case 1:
			s.Tasks = map[string]taskSummary{}
		case 2:
			s.Tasks = rapid.MapOfN(text, task, 1, 3).Draw(rt, "tasks")
		}
		return s
	})
	rapid.Check(t, func(rt *rapid.T) {
		var list allocSummaries
		if !rapid.Bool().Draw(rt, "nil") {
			list = rapid.SliceOfN(alloc, 0, 3).Draw(rt, "allocs")
		}
		for _, v := range []any{list, map[string]any{"allocs": list, "evals": rapid.Int().Draw(rt, "evals")}} {
			want, err := json.Marshal(v)
			if err != nil {
				rt.Fatal(err)
			}
			if got := trace.Encode(v); string(got) != string(want) {
				rt.Fatalf("Encode(%#v) = %s, json.Marshal = %s", v, got, want)
			}
		}
	})
}
