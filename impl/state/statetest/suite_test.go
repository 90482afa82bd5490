package statetest_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/impl/state/statetest"
	"github.com/allocsim/allocsim/model/structs"
)

func openMem(t *testing.T, hook state.FaultHook) interfaces.StateDB {
	db := state.NewMemDB(state.MemConfig{FaultHook: hook})
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// The suite passes on the memory DB (the bbolt run is in package state).
func TestMemDB(t *testing.T) { statetest.TestStateDB(t, openMem) }

// mutantEnv selects the mutant TestMutant runs in the child process.
const mutantEnv = "ALLOCSIM_STATETEST_MUTANT"

// mutants are broken StateDBs, each with the subtests that must catch it.
var mutants = map[string]struct {
	open   statetest.Opener
	caught []string
}{
	"shared_task_state": {
		open: func(t *testing.T, hook state.FaultHook) interfaces.StateDB {
			return &sharedTaskState{DB: openMem(t, hook).(*state.DB), last: map[string]*structs.TaskState{}}
		},
		caught: []string{"DeepCopyIsolation"},
	},
	"unsorted_list": {
		open: func(t *testing.T, hook state.FaultHook) interfaces.StateDB {
			return &unsortedList{openMem(t, hook).(*state.DB)}
		},
		caught: []string{"ListSortedByID", "MatchesModel"},
	},
	"ignores_fault_hook": {
		open:   func(t *testing.T, _ state.FaultHook) interfaces.StateDB { return openMem(t, nil) },
		caught: []string{"FaultHookSeesEveryWrite", "InjectedFailureKeepsPriorValues"},
	},
	"corrupt_fails_list": {
		open: func(t *testing.T, hook state.FaultHook) interfaces.StateDB {
			return &strictList{openMem(t, hook).(*state.DB)}
		},
		caught: []string{"CorruptAllocSkippedPerAlloc", "TaskWriteWithoutAllocIsReportedPerAlloc"},
	},
	"delete_keeps_tasks": {
		open: func(t *testing.T, hook state.FaultHook) interfaces.StateDB {
			return &shallowDelete{openMem(t, hook).(*state.DB)}
		},
		caught: []string{"DeleteAllocationDeletesEverything"},
	},
}

// sharedTaskState hands back the last task state put instead of a copy.
type sharedTaskState struct {
	*state.DB
	last map[string]*structs.TaskState
}

func (m *sharedTaskState) PutTaskState(allocID, task string, ts *structs.TaskState) error {
	m.last[allocID+"/"+task] = ts
	return m.DB.PutTaskState(allocID, task, ts)
}

func (m *sharedTaskState) GetTaskRunnerState(allocID, task string) (*interfaces.LocalState, *structs.TaskState, error) {
	ls, ts, err := m.DB.GetTaskRunnerState(allocID, task)
	if shared, ok := m.last[allocID+"/"+task]; ok && err == nil {
		ts = shared
	}
	return ls, ts, err
}

// unsortedList lists allocs in reverse ID order.
type unsortedList struct{ *state.DB }

func (m *unsortedList) GetAllAllocations() ([]*structs.Allocation, map[string]error, error) {
	allocs, errs, err := m.DB.GetAllAllocations()
	slices.Reverse(allocs)
	return allocs, errs, err
}

// strictList fails the whole listing when one alloc is undecodable.
type strictList struct{ *state.DB }

func (m *strictList) GetAllAllocations() ([]*structs.Allocation, map[string]error, error) {
	allocs, errs, err := m.DB.GetAllAllocations()
	for _, e := range errs {
		return nil, nil, e
	}
	return allocs, errs, err
}

// shallowDelete deletes only the alloc entry, leaving the rest.
type shallowDelete struct{ *state.DB }

func (m *shallowDelete) DeleteAllocationBucket(allocID string) error {
	return m.PutRaw(allocID, "", state.KeyAlloc, nil)
}

// TestMutant runs one mutant's catching subtests in the child process of
// TestSuiteCatchesMutants; it skips otherwise.
func TestMutant(t *testing.T) {
	name := os.Getenv(mutantEnv)
	if name == "" {
		t.Skip("child of TestSuiteCatchesMutants")
	}
	statetest.TestStateDB(t, mutants[name].open)
}

// TestSuiteCatchesMutants: each broken DB fails the subtests meant to catch
// it (a suite that cannot fail proves nothing). Each mutant runs in a
// child process, because a failing subtest would fail this test.
func TestSuiteCatchesMutants(t *testing.T) {
	if os.Getenv(mutantEnv) != "" {
		t.Skip("inside a mutant child")
	}
	for name, m := range mutants {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			run := "-test.run=^TestMutant$/^(" + strings.Join(m.caught, "|") + ")$"
			cmd := exec.CommandContext(ctx, os.Args[0], run, "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), mutantEnv+"="+name)
			cmd.Dir = t.TempDir() // rapid writes its fail files under the working dir
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("mutant %s passed %v, want it caught (err %v):\n%s", name, m.caught, err, out)
			}
			for _, sub := range m.caught {
				if !strings.Contains(string(out), "--- FAIL: TestMutant/"+sub+" ") {
					t.Errorf("mutant %s: subtest %s did not fail", name, sub)
				}
			}
			if t.Failed() {
				t.Logf("child output:\n%s", out)
			}
		})
	}
}
