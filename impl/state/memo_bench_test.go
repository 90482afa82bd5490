package state_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
)

// dayAlloc is an alloc shaped like those of the simulator's day benchmark
// at midday: 3 tasks with 9 events each.
func dayAlloc() *structs.Allocation {
	t0 := time.Date(2024, 6, 14, 6, 0, 0, 0, time.UTC)
	a := &structs.Allocation{ID: "alloc", Name: "day.g[0]", NodeID: "node", Namespace: "default", JobID: "day", TaskGroup: "g",
		DesiredStatus: "run", ClientStatus: "running", TaskStates: map[string]*structs.TaskState{}}
	tg := &structs.TaskGroup{Name: "g", Count: 50}
	for i := range 3 {
		name := fmt.Sprintf("t%d", i+1)
		tg.Tasks = append(tg.Tasks, &structs.Task{Name: name, Driver: "mock_driver", Config: map[string]any{"kill_after": "1s"},
			KillTimeout: 5 * time.Second, KillSignal: "SIGINT"})
		ts := &structs.TaskState{State: "running", Restarts: 1, StartedAt: t0, LastRestart: t0.Add(time.Hour)}
		for j := range 9 {
			ts.Events = append(ts.Events, &structs.TaskEvent{Type: "Started", Time: t0.Add(time.Duration(j) * time.Minute).UnixNano(),
				DisplayMessage: "Task started by client", Details: map[string]string{"exit_code": "0", "signal": "2"}})
		}
		a.TaskStates[name] = ts
	}
	a.Job = &structs.Job{ID: "day", Name: "day", Namespace: "default", Type: "service", TaskGroups: []*structs.TaskGroup{tg}}
	return a
}

// BenchmarkPutUnchangedAlloc is the 60 s snapshot of an alloc that did
// not change (STATE-2): compared (PutAllocation of an equal copy), not
// even compared (PutUnchangedAllocation of the alloc put last), against
// encoding it (what it cost before the memo).
func BenchmarkPutUnchangedAlloc(b *testing.B) {
	db := state.NewMemDB(state.MemConfig{})
	a := dayAlloc()
	b.Run("PutAllocation", func(b *testing.B) {
		c := a.Copy()
		for b.Loop() {
			if err := db.PutAllocation(c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("PutUnchangedAllocation", func(b *testing.B) {
		for b.Loop() {
			if err := db.PutUnchangedAllocation(a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(a); err != nil {
				b.Fatal(err)
			}
		}
	})
}
