package taskrunner

import (
	"encoding/json"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/google/go-cmp/cmp"
)

// TestReplayIsIdentical: DET-4 for one task: the same scenario twice gives
// the same task state (events with their times), driver calls and
// persisted state, byte for byte, jitter included.
func TestReplayIsIdentical(t *testing.T) {
	run := func() string {
		var out string
		synctest.Test(t, func(t *testing.T) {
			tk := newTask(map[string]any{"run_for": "90m", "exit_code": 1, "kill_after": "1s"})
			tk.Schedule = scheduled("0 9 * * * *", "0 17")
			h := newHarness(t, structs.JobTypeService, policy(3, time.Hour, 20*time.Second, "delay"), tk)
			tr := h.start()
			for range 30 {
				h.advance(37 * time.Minute)
			}
			if err := tr.SetPauseState(structs.TaskScheduleStateForceRun); err != nil {
				t.Fatal(err)
			}
			h.advance(3 * time.Hour)
			if err := h.kill(tr); err != nil {
				t.Fatal(err)
			}
			ls, ts := h.persisted()
			b, err := json.Marshal(struct {
				Live      any
				Persisted any
				Local     any
				Ops       []string
				Metrics   []string
			}{tr.TaskState(), ts, ls, h.ops(), h.metrics()})
			if err != nil {
				t.Fatal(err)
			}
			out = fmt.Sprintf("%s\n%d restarts", b, ts.Restarts)
		})
		return out
	}
	first, second := run(), run()
	if diff := cmp.Diff(first, second); diff != "" {
		t.Fatalf("replay differs (-first +second):\n%s", diff)
	}
}
