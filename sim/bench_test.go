package sim

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/scenario"
)

// inBubble runs f in a testing/synctest bubble from a benchmark:
// synctest.Test needs a *testing.T, which testing.RunTests provides (the
// exported entry point go test itself uses).
func inBubble(b *testing.B, f func(t *testing.T)) {
	b.Helper()
	ok := testing.RunTests(func(string, string) (bool, error) { return true, nil },
		[]testing.InternalTest{{Name: b.Name(), F: func(t *testing.T) { synctest.Test(t, f) }}})
	if !ok {
		b.Fatal("simulation failed")
	}
}

// dayScenario is one client with allocs allocs of 3 scheduled tasks each
// (windows of 1 to 3 hours opening at different hours) over 24 hours, no
// faults.
func dayScenario(allocs int) scenario.Scenario {
	var tasks []*structs.Task
	for i, span := range []int{1, 2, 3} {
		open := 6 + 5*i
		tasks = append(tasks, &structs.Task{
			Name: fmt.Sprintf("t%d", i+1), Driver: "mock_driver", Config: map[string]any{"kill_after": "1s"},
			Schedule: &schedule.Schedule{Cron: &schedule.Cron{
				Start: fmt.Sprintf("0 %d * * * *", open), End: fmt.Sprintf("0 %d", open+span), Timezone: "UTC",
			}},
		})
	}
	job := &structs.Job{ID: "day", TaskGroups: []*structs.TaskGroup{{Name: "g", Count: allocs, Tasks: tasks}}}
	job.Canonicalize()
	return scenario.Scenario{
		Name: fmt.Sprintf("day-%d", allocs), Seed: 1, Start: time.Date(2024, 6, 14, 0, 0, 0, 0, time.UTC),
		Duration: scenario.Duration(24 * time.Hour), Jobs: []scenario.JobAt{{Job: job}},
	}
}

// benchDay runs the day scenario b.N times and reports settled instants
// per second of wall time ("events/s"), the virtual/real speedup and the
// trace records per run.
func benchDay(b *testing.B, f interfaces.Factory, allocs int) {
	sc := dayScenario(allocs)
	var steps uint64
	var records int
	b.ResetTimer()
	start := time.Now() // benchmarks measure wall time (test files are outside DET-1)
	for i := 0; i < b.N; i++ {
		inBubble(b, func(t *testing.T) {
			w, err := Run(Config{Scenario: sc, Factory: f, DiscardTrace: true})
			if err != nil {
				t.Fatal(err)
			}
			steps += w.Steps()
			records += w.Trace().Len()
		})
	}
	wall := time.Since(start)
	b.ReportMetric(float64(steps)/wall.Seconds(), "events/s")
	b.ReportMetric(float64(b.N)*sc.Duration.D().Seconds()/wall.Seconds(), "virtual-s/s")
	b.ReportMetric(float64(records)/float64(b.N), "records/run")
	b.ReportMetric(float64(steps)/float64(b.N), "events/run")
}

// BenchmarkDay50x3: the reference runner, one client, 50 allocs × 3
// scheduled tasks, 24 virtual hours.
func BenchmarkDay50x3(b *testing.B) { benchDay(b, referenceFactory(), 50) }

// BenchmarkDay50x3Minimal: the same day with the minimal runner (client
// traffic only).
func BenchmarkDay50x3Minimal(b *testing.B) { benchDay(b, minimalFactory(), 50) }

// BenchmarkReplaySeed: one generated scenario (a few virtual minutes,
// faults on) with the reference runner, trace kept: the cost of one
// replay-test run.
func BenchmarkReplaySeed(b *testing.B) {
	sc := scenario.Generate(7, scenario.Options{})
	var steps uint64
	start := time.Now() // benchmarks measure wall time (test files are outside DET-1)
	for i := 0; i < b.N; i++ {
		inBubble(b, func(t *testing.T) {
			w, err := Run(Config{Scenario: sc, Factory: referenceFactory()})
			if err != nil {
				t.Fatal(err)
			}
			steps += w.Steps()
		})
	}
	b.ReportMetric(float64(steps)/time.Since(start).Seconds(), "events/s")
}
