package cluster

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/allocsim/allocsim/sim/server"
)

// Result is what a run observed.
type Result struct {
	// Runner is the Factory's name; Seed and Clients the Config's.
	Runner  string
	Seed    uint64
	Clients int
	// Start and End are the instants the run started and was closed at.
	Start, End time.Time
	// Steps is the number of settled instants.
	Steps uint64
	// Server is the server's client-update traffic (UpdateAlloc calls,
	// log entries and their bytes).
	Server server.Stats
	// Allocs is the number of allocs the server placed.
	Allocs int
	// Calls are the clients' Node.UpdateAlloc calls, by client, then in
	// the order they were made.
	Calls []Call
	// Changes are the ClientStatus changes the runners pushed, by client,
	// instant and alloc (one alloc's in push order).
	Changes []Change
}

// Duration is the run's virtual length.
func (r Result) Duration() time.Duration { return r.End.Sub(r.Start) }

// Result reads what the run observed so far (after Close: all of it).
func (c *Cluster) Result() Result {
	end := c.clk.Now()
	if c.closed {
		end = c.end
	}
	res := Result{Runner: c.cfg.Factory.Name, Seed: c.cfg.Seed, Clients: len(c.clients),
		Start: c.cfg.Start, End: end, Steps: c.steps, Server: c.srv.Stats(), Allocs: c.srv.AllocCount()}
	for _, cl := range c.clients {
		o := cl.obs
		o.mu.Lock()
		for _, rec := range o.calls {
			res.Calls = append(res.Calls, rec.call)
		}
		res.Changes = append(res.Changes, o.changes...)
		o.mu.Unlock()
	}
	// The clients' observers are read in order, so calls are by client,
	// each client's in the order it made them. Runners of one client push
	// at one instant in an order their goroutines race for: changes are
	// sorted by instant and alloc (a stable sort keeps one alloc's order).
	slices.SortStableFunc(res.Changes, func(a, b Change) int {
		return cmp.Or(cmp.Compare(a.Client, b.Client), a.At.Compare(b.At), cmp.Compare(a.Alloc, b.Alloc))
	})
	return res
}

// Run is the whole of a run: New, the churn's operations at their
// instants (each after the timers of its instant), the run to the end of
// the churn's duration, Close. It must be called inside a
// testing/synctest bubble. The Result is returned even with an error (a
// rejected operation, an error of Close).
func Run(cfg Config, churn Churn) (Result, error) {
	if err := churn.Validate(); err != nil {
		return Result{}, fmt.Errorf("cluster: %w", err)
	}
	c, err := New(cfg)
	if err != nil {
		return Result{}, err
	}
	var errs []error
	for _, group := range groups(churn.Plan(cfg.Seed, cfg.Clients)) {
		c.AdvanceTo(c.StartTime().Add(group[0].At))
		errs = append(errs, c.Apply(group...))
	}
	c.AdvanceTo(c.StartTime().Add(churn.Duration))
	errs = append(errs, c.Close())
	return c.Result(), errors.Join(errs...)
}

// groups cuts a plan into what Run applies at once: the placements and
// updates of one client at one instant (one server pass, so its node's
// blocking pull wakes once), and each stop alone; the cluster settles
// between two groups.
func groups(ops []Op) [][]Op {
	var out [][]Op
	for _, op := range ops {
		if n := len(out); n > 0 && op.Kind != OpStop {
			last := out[n-1]
			if l := last[len(last)-1]; l.Kind != OpStop && l.At == op.At && l.Client == op.Client {
				out[n-1] = append(last, op)
				continue
			}
		}
		out = append(out, []Op{op})
	}
	return out
}
