package cluster

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/internal/benchbubble"

	"github.com/allocsim/allocsim/impl/reference"
)

// BenchmarkClients100x50, BenchmarkClients1000x50 and
// BenchmarkClients100x500: the reference runner, clients × allocs per
// client under the churn, 10 virtual minutes, 10 ms request latency, to
// show how the cost grows with clients and with allocs (issue 25). Each
// reports the settled instants per run ("events/run"), the virtual
// seconds per wall second and the UpdateAlloc calls per run.
func BenchmarkClients100x50(b *testing.B)  { benchClients(b, 100, 50) }
func BenchmarkClients1000x50(b *testing.B) { benchClients(b, 1000, 50) }
func BenchmarkClients100x500(b *testing.B) { benchClients(b, 100, 500) }

func benchClients(b *testing.B, clients, allocs int) {
	churn := Churn{AllocsPerClient: allocs, Duration: 10 * time.Minute}
	var steps uint64
	var rpcs int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		benchbubble.Run(b, func(t *testing.T) {
			res, err := Run(Config{Factory: reference.Factory, Seed: 1, Clients: clients, RPCLatency: 10 * time.Millisecond}, churn)
			if err != nil {
				t.Fatal(err)
			}
			steps += res.Steps
			rpcs += res.Server.UpdateAllocCalls
		})
	}
	wall := b.Elapsed()
	b.ReportMetric(float64(steps)/float64(b.N), "events/run")
	b.ReportMetric(float64(b.N)*churn.Duration.Seconds()/wall.Seconds(), "virtual-s/s")
	b.ReportMetric(float64(rpcs)/float64(b.N), "rpcs/run")
}
