package studycmd

import (
	"fmt"
	"math"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/runners"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/cluster"
)

// minTypicalGap is SYNC-5.2's spacing: without an urgent entry a client
// sends on every 5th 200 ms tick at most.
const minTypicalGap = syncpolicy.FullSyncEvery * syncpolicy.TickInterval

// RunSpec is one run of the study: a runner on one configuration and
// seed.
type RunSpec struct {
	// Runner is a built-in runner's name (runners.Lookup).
	Runner string `json:"runner"`
	// Clients and Allocs are the configuration: N clients of Allocs
	// allocs each (cluster.Churn).
	Clients int    `json:"clients"`
	Allocs  int    `json:"allocs"`
	Seed    uint64 `json:"seed"`
	// Duration is the run's virtual length; RPCLatency each client RPC's.
	Duration   time.Duration `json:"duration"`
	RPCLatency time.Duration `json:"rpc_latency"`
}

func (s RunSpec) String() string {
	return fmt.Sprintf("%s %dx%d seed %d", s.Runner, s.Clients, s.Allocs, s.Seed)
}

// RunSummary is what the study keeps of one run: counts, the spacing of
// typical-only calls and the latency distributions.
type RunSummary struct {
	Spec RunSpec `json:"spec"`
	// Err is the run's error (a harness failure), empty if none.
	Err string `json:"error,omitempty"`
	// Steps are the settled instants; Allocs the allocs placed.
	Steps  uint64 `json:"steps"`
	Allocs int    `json:"allocs"`
	// RPCs are the Node.UpdateAlloc calls the server accepted;
	// AllocUpdates the allocs in them; LogEntries and LogBytes the log
	// entries they made and their size (sim/server Stats).
	RPCs         int `json:"rpcs"`
	AllocUpdates int `json:"alloc_updates"`
	LogEntries   int `json:"log_entries"`
	LogBytes     int `json:"log_bytes"`
	// Calls are the calls the clients made (client side), Urgent those
	// carrying an urgent entry, Typical the others.
	Calls   int `json:"calls"`
	Urgent  int `json:"urgent_calls"`
	Typical int `json:"typical_calls"`
	// MinTypicalGap is the shortest time from a client's call to its next
	// call when that one is typical-only (0: no such pair);
	// TypicalTooSoon counts such calls under 1 s (SYNC-5.2).
	MinTypicalGap  time.Duration `json:"min_typical_gap"`
	TypicalTooSoon int           `json:"typical_too_soon"`
	// MaxCallTime is the longest UpdateAlloc round trip.
	MaxCallTime time.Duration `json:"max_call_time"`
	// UrgentLatency and OtherLatency are the latencies of the ClientStatus
	// changes the server saw, urgent ones (against the acknowledged
	// state) and the others (no state acknowledged yet); Unseen the
	// changes it had not seen by the end.
	UrgentLatency Dist `json:"urgent_latency"`
	OtherLatency  Dist `json:"other_latency"`
	Unseen        int  `json:"unseen"`
	// Wall is what the run cost the machine that ran it: the worker's
	// real time around the run's bubble (zero where nobody measured). It
	// is the one figure two runs of a spec do not share.
	Wall time.Duration `json:"wall,omitempty"`
}

// RunOne runs spec and summarizes it. It must be called inside a
// testing/synctest bubble.
func RunOne(spec RunSpec) (RunSummary, error) {
	r, err := runners.Lookup(spec.Runner)
	if err != nil {
		return RunSummary{Spec: spec}, fmt.Errorf("run %s: %w", spec, err)
	}
	res, err := cluster.Run(cluster.Config{Factory: r.Factory, Seed: spec.Seed, Clients: spec.Clients, RPCLatency: spec.RPCLatency},
		cluster.Churn{AllocsPerClient: spec.Allocs, Duration: spec.Duration})
	s := summarize(spec, res)
	if err != nil {
		s.Err = err.Error()
		return s, fmt.Errorf("run %s: %w", spec, err)
	}
	return s, nil
}

// summarize reduces a run's Result to its summary.
func summarize(spec RunSpec, res cluster.Result) RunSummary {
	s := RunSummary{Spec: spec, Steps: res.Steps, Allocs: res.Allocs, RPCs: res.Server.UpdateAllocCalls,
		AllocUpdates: res.Server.AllocUpdates, LogEntries: res.Server.LogEntries, LogBytes: res.Server.LogBytes}
	prev := map[int]time.Time{}
	for _, c := range res.Calls {
		s.Calls++
		if !c.Return.IsZero() {
			s.MaxCallTime = max(s.MaxCallTime, c.Return.Sub(c.Start))
		}
		last, seen := prev[c.Client]
		prev[c.Client] = c.Start
		if c.Urgent {
			s.Urgent++
			continue
		}
		s.Typical++
		if !seen {
			continue
		}
		gap := c.Start.Sub(last)
		if s.MinTypicalGap == 0 || gap < s.MinTypicalGap {
			s.MinTypicalGap = gap
		}
		if gap < minTypicalGap {
			s.TypicalTooSoon++
		}
	}
	for _, ch := range res.Changes {
		l, ok := ch.Latency()
		switch {
		case !ok:
			s.Unseen++
		case ch.Urgent:
			s.UrgentLatency.Add(l)
		default:
			s.OtherLatency.Add(l)
		}
	}
	return s
}

// Dist is a latency distribution: a histogram of whole milliseconds
// (each latency rounded up: Hist[k] counts those in (k-1, k] ms) and the
// exact maximum.
type Dist struct {
	Count int           `json:"count"`
	Max   time.Duration `json:"max"`
	Hist  []int         `json:"hist"`
}

// Add counts one latency.
func (d *Dist) Add(l time.Duration) {
	k := int((l + time.Millisecond - 1) / time.Millisecond)
	k = max(k, 0)
	for len(d.Hist) <= k {
		d.Hist = append(d.Hist, 0)
	}
	d.Hist[k]++
	d.Count++
	d.Max = max(d.Max, l)
}

// Merge adds o's latencies.
func (d *Dist) Merge(o Dist) {
	for len(d.Hist) < len(o.Hist) {
		d.Hist = append(d.Hist, 0)
	}
	for k, n := range o.Hist {
		d.Hist[k] += n
	}
	d.Count += o.Count
	d.Max = max(d.Max, o.Max)
}

// Quantile is the q-quantile (0 < q ≤ 1) in whole milliseconds rounded
// up: the smallest k such that at least q of the latencies are at most
// k ms, or the maximum if that is smaller; false for an empty
// distribution.
func (d Dist) Quantile(q float64) (time.Duration, bool) {
	if d.Count == 0 {
		return 0, false
	}
	need := int(math.Ceil(q*float64(d.Count) - 1e-9)) // 0.99·100 is 99.000…01 in floating point
	need = min(max(need, 1), d.Count)
	sum := 0
	for k, n := range d.Hist {
		if sum += n; sum >= need {
			return min(time.Duration(k)*time.Millisecond, d.Max), true // never above the exact maximum
		}
	}
	return d.Max, true
}

// AtMost is the share of latencies at most l (rounded up to the ms).
func (d Dist) AtMost(l time.Duration) float64 {
	if d.Count == 0 {
		return 0
	}
	k := int(l / time.Millisecond)
	sum := 0
	for i := 0; i <= k && i < len(d.Hist); i++ {
		sum += d.Hist[i]
	}
	return float64(sum) / float64(d.Count)
}
