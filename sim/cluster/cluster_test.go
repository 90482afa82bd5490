package cluster

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/shoenig/test/must"
)

// job is a service job of count allocs of one mock driver task with cfg.
func job(id string, count int, cfg map[string]any) *structs.Job {
	j := &structs.Job{ID: id, Name: id, Type: structs.JobTypeService, TaskGroups: []*structs.TaskGroup{{
		Name: "g", Count: count, Tasks: []*structs.Task{{Name: "t", Driver: "mock_driver", Config: cfg}},
	}}}
	j.Canonicalize()
	return j
}

// runChurn runs a small churn in a bubble of its own.
func runChurn(t *testing.T, clients, allocs int, d time.Duration) Result {
	t.Helper()
	var res Result
	synctest.Test(t, func(t *testing.T) {
		var err error
		res, err = Run(Config{Factory: reference.Factory, Seed: 7, Clients: clients, RPCLatency: 10 * time.Millisecond},
			Churn{AllocsPerClient: allocs, Duration: d})
		must.NoError(t, err)
	})
	return res
}

// TestDeterminism: a seed gives the same run twice, call for call and
// change for change, with one client and with three.
func TestDeterminism(t *testing.T) {
	for _, clients := range []int{1, 3} {
		a := runChurn(t, clients, 20, 2*time.Minute)
		b := runChurn(t, clients, 20, 2*time.Minute)
		must.Positive(t, a.Server.UpdateAllocCalls)
		must.Eq(t, a.Server.UpdateAllocCalls, b.Server.UpdateAllocCalls, must.Sprintf("%d clients: RPC count", clients))
		must.Eq(t, a.Server, b.Server)
		must.Eq(t, a.Steps, b.Steps)
		must.Eq(t, a.Calls, b.Calls)
		must.Eq(t, a.Changes, b.Changes)
	}
}

// TestTwoClients: each client runs the job placed on its node, and the
// server receives both clients' updates.
func TestTwoClients(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, err := New(Config{Factory: reference.Factory, Seed: 3, Clients: 2})
		must.NoError(t, err)
		must.NotEq(t, c.NodeID(0), c.NodeID(1))
		var ids [2][]string
		for i := range 2 {
			allocs, err := c.Place(i, job("web"+string(rune('a'+i)), 2, nil))
			must.NoError(t, err)
			must.SliceLen(t, 2, allocs)
			for _, a := range allocs {
				must.Eq(t, c.NodeID(i), a.NodeID)
				ids[i] = append(ids[i], a.ID)
			}
		}
		c.Advance(10 * time.Second)
		for i := range 2 {
			for _, id := range ids[i] {
				must.Eq(t, structs.AllocClientStatusRunning, c.Server().Alloc(id).ClientStatus, must.Sprintf("client %d alloc %s", i, id))
				must.MapNotEmpty(t, c.Server().Alloc(id).TaskStates)
				must.SliceEmpty(t, c.Server().History(id, 0), must.Sprint("the cluster's server keeps no history"))
			}
		}
		must.NoError(t, c.Close())
		res := c.Result()
		must.Eq(t, 2, res.Clients)
		per := map[int]int{}
		for _, call := range res.Calls {
			per[call.Client]++
			must.Eq(t, "", call.Err)
			must.False(t, call.Received.IsZero())
		}
		must.Positive(t, per[0])
		must.Positive(t, per[1])
		must.Eq(t, res.Server.UpdateAllocCalls, len(res.Calls))
	})
}

// TestLatency: one alloc's task runs 30 s and exits 0; its running and
// complete statuses reach the server, the urgent one within one tick plus
// the request latency and the longest round trip.
func TestLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const lat = 10 * time.Millisecond
		c, err := New(Config{Factory: reference.Factory, Seed: 5, Clients: 1, RPCLatency: lat})
		must.NoError(t, err)
		j := job("once", 1, map[string]any{"run_for": "30s", "exit_code": 0})
		j.Type = structs.JobTypeBatch
		_, err = c.Place(0, j)
		must.NoError(t, err)
		c.Advance(time.Minute)
		must.NoError(t, c.Close())
		res := c.Result()
		var to []string
		for _, ch := range res.Changes {
			to = append(to, ch.To)
			l, ok := ch.Latency()
			must.True(t, ok, must.Sprintf("change %+v never seen", ch))
			must.Positive(t, l)
			if ch.Urgent {
				must.LessEq(t, syncpolicy.TickInterval+lat+lat+syncpolicy.CommitWindow, l)
			}
		}
		must.Eq(t, []string{structs.AllocClientStatusRunning, structs.AllocClientStatusComplete}, to)
		must.True(t, res.Changes[1].Urgent, must.Sprint("running → complete after running was acknowledged"))
		must.Eq(t, time.Minute, res.Duration())
	})
}

func TestConfigErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, err := New(Config{Clients: 1})
		must.ErrorContains(t, err, "Factory.NewClient and Factory.NewAllocRunner are both required")
		_, err = New(Config{Factory: reference.Factory})
		must.ErrorContains(t, err, "0 clients: want 1 to 10000")
		_, err = New(Config{Factory: reference.Factory, Clients: 1, RPCLatency: -time.Second})
		must.ErrorContains(t, err, "negative RPC latency")
		_, err = Run(Config{Factory: reference.Factory, Clients: 1}, Churn{})
		must.ErrorContains(t, err, "0 allocs per client")
		c, err := New(Config{Factory: reference.Factory, Clients: 1})
		must.NoError(t, err)
		_, err = c.Place(1, job("x", 1, nil))
		must.ErrorContains(t, err, "no client 1 (of 1)")
		must.ErrorContains(t, c.Apply(Op{Kind: OpStop, Job: job("nope", 1, nil)}), `job "nope" not found`)
		must.NoError(t, c.Close())
		must.ErrorContains(t, c.Close(), "already closed")
	})
}

// TestFactoryNames: the Result names the runner.
func TestFactoryNames(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := interfaces.Factory{Name: "mine", NewClient: reference.Factory.NewClient, NewAllocRunner: reference.Factory.NewAllocRunner}
		res, err := Run(Config{Factory: f, Seed: 1, Clients: 1}, Churn{AllocsPerClient: 1, Duration: 20 * time.Second})
		must.NoError(t, err)
		must.Eq(t, "mine", res.Runner)
		must.Eq(t, uint64(1), res.Seed)
	})
}
