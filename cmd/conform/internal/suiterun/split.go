package suiterun

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/allocsim/allocsim/cmd/conform/internal/runners"
	"github.com/allocsim/allocsim/reports"
)

// maxSplit bounds the parts one runner is split into: the full
// profile's properties number about fifty, so no part is empty.
const maxSplit = 16

// partsPerCPU is how many parts a split runner's suite is cut into per
// CPU it has. The parts wait in a queue and each process that ends one
// takes the next, so the processes end close together
// instead of one CPU idling while another checks the rest: properties
// differ in cost tenfold and the suite's order groups the costly ones
// (SYNC-5), and cut in two halves the suite's CPU-seconds were 31 and 49
// (conform run --runner reference --checks 200, 2 CPUs). A part costs a
// process start, about 30 ms of CPU.
const partsPerCPU = 4

// The processes number one more than the CPUs: a property that waits in
// real time (DET-3/concurrent-use: 45 ms of wall for 13 ms of CPU a
// check) leaves its process's CPU idle most of the time, about a tenth of
// a suite run's CPU, which the extra process fills; while every process
// computes, the CPUs share them with no loss of throughput.

// split is how many test processes check target t at once (procs: one
// more than its share of CPUs, see above) and
// how many parts, each a shard of its properties, they take from a
// queue (parts), when the plan has fewer targets than Parallel: the
// suite's properties are independent (each draws its own seeds and
// checks them in order), so a lone runner split into shards of its
// properties (-allocsim.shard) runs on every CPU the plan allows instead
// of one, and its results are the same. Only a full-profile suite is
// split, whole or a list of property IDs (not SPEC IDs, whose count is
// unknown here), into no more parts than it has properties, so that
// every part holds properties of the profile; a plan that shards already
// is not split again.
func (p Plan) split(t Target) (procs, parts int) {
	if p.Shards > 0 || len(t.Specs) > 0 || (t.Profile != "" && t.Profile != runners.ProfileFull) {
		return 1, 1
	}
	cpus := min(p.Parallel/max(len(p.Targets), 1), maxSplit)
	if cpus <= 1 {
		return 1, 1
	}
	parts = min(cpus*partsPerCPU, maxSplit)
	procs = cpus + 1
	if len(p.Properties) > 0 {
		for _, id := range p.Properties {
			if !strings.Contains(id, "/") {
				return 1, 1
			}
		}
		parts = min(parts, len(p.Properties))
		procs = min(procs, parts)
	}
	return procs, parts
}

// checkSplit checks target t in p.split(t)'s parts, each a shard of its
// properties, by that many processes at once, and merges their results
// in the suite's order. Progress reports the runner's property count as
// the sum of what the parts started so far announced.
func (p Plan) checkSplit(ctx context.Context, b binary, t Target, emit func(Event)) (reports.Runner, error) {
	procs, n := p.split(t)
	if n <= 1 {
		return p.check(ctx, b, t, emit)
	}
	parts := make([]reports.Runner, n)
	errs := make([]error, n)
	planned := make([]int, n)
	var mu sync.Mutex
	queue := make(chan int, n)
	for i := range n {
		queue <- i
	}
	close(queue)
	var wg sync.WaitGroup
	for range procs {
		wg.Go(func() {
			for i := range queue {
				run := p
				run.Shard, run.Shards = i+1, n
				parts[i], errs[i] = run.check(ctx, b, t, func(e Event) {
					mu.Lock()
					defer mu.Unlock()
					if e.Kind == KindRunnerPlanned {
						planned[i] = e.Total
						e.Total = 0
						for _, x := range planned {
							e.Total += x
						}
					}
					emit(e)
				})
			}
		})
	}
	wg.Wait()
	return mergeShards(parts), errors.Join(errs...)
}

// mergeShards merges the results of shards 1..n of one runner: shard i
// holds the suite's properties i-1, i-1+n, i-1+2n, ... in order, so
// taking one from each in turn restores the suite's order.
func mergeShards(parts []reports.Runner) reports.Runner {
	r := parts[0]
	r.Properties = nil
	for k := 0; ; k++ {
		took := false
		for _, part := range parts {
			if k < len(part.Properties) {
				r.Properties = append(r.Properties, part.Properties[k])
				took = true
			}
		}
		if !took {
			return r
		}
	}
}
