package state_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
)

// crashDirEnv names the DB dir for the writer child of
// TestBoltCrashKeepsCommittedWrites.
const crashDirEnv = "ALLOCSIM_STATE_CRASH_DIR"

// crashFirstEnv is the index of the first alloc the writer child writes:
// the one after the last alloc whose writes all returned in the previous
// round, so an alloc cut in the middle of its three writes is rewritten.
const crashFirstEnv = "ALLOCSIM_STATE_CRASH_FIRST"

// crashID names the i-th alloc the writer child commits.
func crashID(i int) string { return fmt.Sprintf("alloc-%06d", i) }

// TestBoltCrashWriter is the child process: it opens the DB and writes
// alloc after alloc (alloc, task state, local state), printing each ID once
// its writes returned, until it is killed. It skips outside the crash test.
func TestBoltCrashWriter(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" {
		t.Skip("writer child of TestBoltCrashKeepsCommittedWrites")
	}
	db, err := state.OpenBolt(state.BoltConfig{Dir: dir})
	must.NoError(t, err)
	first, err := strconv.Atoi(os.Getenv(crashFirstEnv))
	must.NoError(t, err)
	for i := first; ; i++ {
		id := crashID(i)
		must.NoError(t, db.PutAllocation(&structs.Allocation{ID: id, ClientStatus: "running"}))
		must.NoError(t, db.PutTaskState(id, "web", &structs.TaskState{State: "running", Restarts: uint64(i)}))
		must.NoError(t, db.PutTaskRunnerLocalState(id, "web", &interfaces.LocalState{RunComplete: i%2 == 0}))
		fmt.Fprintf(os.Stdout, "committed %s\n", id)
	}
}

// TestBoltCrashKeepsCommittedWrites kills (SIGKILL) a child process that
// is writing to the bbolt DB, several times, and checks after each kill
// that the DB opens and holds every write the child saw return: bbolt
// commits are durable and atomic (STATE-1, STATE-3). A kill loses the
// process, not the OS page cache; power loss is bbolt's fsync contract.
func TestBoltCrashKeepsCommittedWrites(t *testing.T) {
	if os.Getenv(crashDirEnv) != "" {
		t.Skip("inside the writer child")
	}
	dir := t.TempDir()
	committed := 0
	for _, killAfter := range []int{40, 25, 60} {
		seen := runWriterUntil(t, dir, committed, committed+killAfter-1)
		db, err := state.OpenBolt(state.BoltConfig{Dir: dir})
		must.NoError(t, err)
		allocs, errs, err := db.GetAllAllocations()
		must.NoError(t, err)
		must.MapEmpty(t, errs)
		// Every alloc the child saw committed is there; it may have
		// committed more before the kill landed (its output is buffered).
		must.GreaterEq(t, seen+1, len(allocs))
		for i, a := range allocs {
			must.EqOp(t, crashID(i), a.ID)
			ls, ts, err := db.GetTaskRunnerState(a.ID, "web")
			must.NoError(t, err)
			if i <= seen || ts != nil {
				must.NotNil(t, ts, must.Sprintf("task state of %s", a.ID))
				must.EqOp(t, uint64(i), ts.Restarts)
			}
			if i <= seen || ls != nil {
				must.NotNil(t, ls, must.Sprintf("local state of %s", a.ID))
				must.EqOp(t, i%2 == 0, ls.RunComplete)
			}
		}
		committed = seen + 1
		must.NoError(t, db.Close())
	}
}

// runWriterUntil runs the writer child on dir, whose first alloc has index
// first, kills it once it printed the alloc with index last, and returns
// the highest index it printed.
func runWriterUntil(t *testing.T, dir string, first, last int) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestBoltCrashWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashDirEnv+"="+dir, crashFirstEnv+"="+strconv.Itoa(first))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	must.NoError(t, err)
	must.NoError(t, cmd.Start())
	seen := first - 1
	sc := bufio.NewScanner(out)
	for seen < last && sc.Scan() {
		id, ok := strings.CutPrefix(sc.Text(), "committed ")
		if !ok {
			continue
		}
		must.EqOp(t, crashID(seen+1), id)
		seen++
	}
	must.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait() // killed: the error is expected
	must.EqOp(t, last, seen, must.Sprintf("the writer stopped early (timeout or failure)"))
	return seen
}
