package cluster

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/internal/benchbubble"

	"github.com/allocsim/allocsim/impl/reference"
)

// BenchmarkClients100x50: the reference runner, 100 clients of 50 allocs
// each under the churn, 10 virtual minutes, 10 ms request latency. It
// reports the settled instants per run ("events/run") and the virtual
// seconds per wall second.
func BenchmarkClients100x50(b *testing.B) {
	churn := Churn{AllocsPerClient: 50, Duration: 10 * time.Minute}
	var steps uint64
	var rpcs int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		benchbubble.Run(b, func(t *testing.T) {
			res, err := Run(Config{Factory: reference.Factory, Seed: 1, Clients: 100, RPCLatency: 10 * time.Millisecond}, churn)
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
