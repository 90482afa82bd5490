package client

import (
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
	"go.uber.org/goleak"
)

// TestMain fails the package if any goroutine outlives the tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// t0 is the virtual start of every rig.
var t0 = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

// rig is one client against a fake server on a virtual clock, with a
// memory state DB and a fake runner factory. Build it inside a synctest
// bubble.
type rig struct {
	t      *testing.T
	clk    *vclock.Clock
	srv    *fakeServer
	db     *state.DB
	ff     *fakeFactory
	seed   uint64
	client *Client
	fs     *allocdir.MemFS // alloc dirs of reference runners, made on first use
}

func newRig(t *testing.T) *rig {
	clk := vclock.New(t0)
	return &rig{
		t: t, clk: clk, srv: newFakeServer(clk),
		db: state.NewMemDB(state.MemConfig{}), ff: newFakeFactory(), seed: 1,
	}
}

// options are the rig's client options: a ContextRPCClient server and the
// fake factory.
func (r *rig) options() *interfaces.ClientOptions {
	return &interfaces.ClientOptions{
		Node: &interfaces.ClientConfig{
			NodeID: "node-1", Datacenter: "dc1", NodePool: "default", Region: "global",
			DisableAllocationHookMetrics: true,
		},
		Clock:              r.clk,
		Rand:               rand.New(rand.NewPCG(r.seed, 7)),
		StateDB:            r.db,
		RPCClient:          ctxServer{r.srv},
		AllocRunnerFactory: r.ff.build,
	}
}

// startWith builds and starts the client from options changed by mutate.
func (r *rig) startWith(mutate func(o *interfaces.ClientOptions)) *Client {
	r.t.Helper()
	opts := r.options()
	if mutate != nil {
		mutate(opts)
	}
	c, err := New(opts)
	must.NoError(r.t, err)
	r.client = c.(*Client)
	// Runs inside the bubble even when the test fails, so a failure is
	// reported instead of a synctest deadlock.
	r.t.Cleanup(func() {
		r.srv.closeOnce()
		r.client.Shutdown()
	})
	must.NoError(r.t, r.client.Start())
	return r.client
}

func (r *rig) start() *Client { return r.startWith(nil) }

// advance moves virtual time by d, letting everything settle before and
// after (DESIGN.md: synctest.Wait before every Add).
func (r *rig) advance(d time.Duration) {
	synctest.Wait()
	r.clk.Add(d)
	synctest.Wait()
}

// advanceBy steps virtual time in steps of step until total has passed,
// calling each (if non-nil) after every step with the elapsed time.
func (r *rig) advanceBy(total, step time.Duration, each func(elapsed time.Duration)) {
	for elapsed := step; elapsed <= total; elapsed += step {
		r.advance(step)
		if each != nil {
			each(elapsed)
		}
	}
}

func (r *rig) shutdown() {
	synctest.Wait()
	r.client.Shutdown()
}

// testAlloc is a server alloc of a one-task group on node-1.
func testAlloc(id string, modifyIndex uint64, tasks ...string) *structs.Allocation {
	if len(tasks) == 0 {
		tasks = []string{"web"}
	}
	tg := &structs.TaskGroup{Name: "group"}
	for _, name := range tasks {
		tg.Tasks = append(tg.Tasks, &structs.Task{Name: name, Driver: "mock"})
	}
	return &structs.Allocation{
		ID: id, NodeID: "node-1", Namespace: "default", JobID: "job",
		Job:       &structs.Job{ID: "job", Namespace: "default", Type: "service", TaskGroups: []*structs.TaskGroup{tg}},
		TaskGroup: "group", DesiredStatus: structs.AllocDesiredStatusRun,
		ClientStatus: structs.AllocClientStatusPending, AllocModifyIndex: modifyIndex,
	}
}

// versions renders an update call's allocs as ID@ClientDescription.
func versions(u updateCall) []string {
	var out []string
	for _, a := range u.req.Alloc {
		out = append(out, a.ID+"@"+a.ClientDescription)
	}
	return out
}

func times(calls []updateCall) []time.Duration {
	var out []time.Duration
	for _, c := range calls {
		out = append(out, c.at)
	}
	return out
}

const ms = time.Millisecond

// len is the number of buffered updates, read under the buffer lock.
func (p *pendingUpdates) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.Len()
}

// seedRestorable persists allocs as a previous client run left them: the
// alloc and a task state for its first task.
func seedRestorable(t *testing.T, db interfaces.StateDB, allocs ...*structs.Allocation) {
	t.Helper()
	for _, a := range allocs {
		must.NoError(t, db.PutAllocation(a))
		task := a.LookupTaskGroup().Tasks[0].Name
		must.NoError(t, db.PutTaskState(a.ID, task, structs.NewTaskState()))
	}
}
