package sim

import (
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/internal/benchbubble"
	"github.com/allocsim/allocsim/internal/bubbletime"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/vclock"
)

// The simulator's benchmarks (project issue 13). Each reports, besides
// the time per run:
//
//   - events/run: the settled instants the world advanced through (one or
//     more timers firing at an instant, then the synctest.Wait barrier);
//   - virtual-s/s: virtual seconds simulated per second of wall time;
//   - ns/event: wall time per event, the figure compared with
//     BenchmarkFloor, the bare clock and barrier loop under the world.
//
// go run ./internal/benchreport runs them one process each and writes
// reports/bench (its doc.go).

// benchStart is the virtual instant every benchmark starts at.
var benchStart = time.Date(2024, 6, 14, 0, 0, 0, 0, time.UTC)

// scheduledScenario is one client with allocs allocs of one group whose
// tasks are the mock driver (killed 1 s after a stop) with one cron
// window each, [open, open+span) hours and minutes given as "M H", UTC,
// over d of virtual time, no faults.
func scheduledScenario(name string, allocs int, d time.Duration, windows [][2]string) scenario.Scenario {
	var tasks []*structs.Task
	for i, w := range windows {
		tasks = append(tasks, &structs.Task{
			Name: fmt.Sprintf("t%d", i+1), Driver: "mock_driver", Config: map[string]any{"kill_after": "1s"},
			Schedule: &schedule.Schedule{Cron: &schedule.Cron{
				Start: w[0] + " * * * *", End: w[1], Timezone: "UTC",
			}},
		})
	}
	job := &structs.Job{ID: name, TaskGroups: []*structs.TaskGroup{{Name: "g", Count: allocs, Tasks: tasks}}}
	job.Canonicalize()
	return scenario.Scenario{
		Name: fmt.Sprintf("%s-%d", name, allocs), Seed: 1, Start: benchStart,
		Duration: scenario.Duration(d), Jobs: []scenario.JobAt{{Job: job}},
	}
}

// dayScenario is one client with allocs allocs of 3 scheduled tasks each
// (windows 06:00-07:00, 11:00-13:00 and 16:00-19:00 UTC) over 24 hours,
// no faults.
func dayScenario(allocs int) scenario.Scenario {
	var windows [][2]string
	for i, span := range []int{1, 2, 3} {
		open := 6 + 5*i
		windows = append(windows, [2]string{fmt.Sprintf("0 %d", open), fmt.Sprintf("0 %d", open+span)})
	}
	return scheduledScenario("day", allocs, 24*time.Hour, windows)
}

// hourScenario is one client with allocs allocs of one scheduled task
// each, all with the window 00:10-00:40 UTC, over the first virtual hour:
// every task starts at 00:10 and is stopped at 00:40, and the clock holds
// one schedule timer per alloc.
func hourScenario(allocs int) scenario.Scenario {
	return scheduledScenario("hour", allocs, time.Hour, [][2]string{{"10 0", "40 0"}})
}

// reportSim reports the simulator's metrics for b.N runs of virtual
// duration each that advanced through events events in all.
func reportSim(b *testing.B, events uint64, virtual time.Duration) {
	wall := b.Elapsed()
	b.ReportMetric(float64(events)/float64(b.N), "events/run")
	b.ReportMetric(float64(b.N)*virtual.Seconds()/wall.Seconds(), "virtual-s/s")
	if events > 0 {
		b.ReportMetric(float64(wall.Nanoseconds())/float64(events), "ns/event")
	}
}

// benchScenario runs sc with f b.N times, the trace counted but not kept
// when discard is set, and reports reportSim's metrics and the trace
// records per run.
func benchScenario(b *testing.B, f interfaces.Factory, sc scenario.Scenario, discard bool) {
	var events uint64
	var records int
	b.ResetTimer()
	for range b.N {
		benchbubble.Run(b, func(t *testing.T) {
			w, err := Run(Config{Scenario: sc, Factory: f, DiscardTrace: discard})
			if err != nil {
				t.Fatal(err)
			}
			events += w.Steps()
			records += w.Trace().Len()
		})
	}
	reportSim(b, events, sc.Duration.D())
	b.ReportMetric(float64(records)/float64(b.N), "records/run")
}

// BenchmarkDay50x3: the reference runner, one client, 50 allocs × 3
// scheduled tasks, 24 virtual hours, the trace discarded.
func BenchmarkDay50x3(b *testing.B) { benchScenario(b, referenceFactory(), dayScenario(50), true) }

// BenchmarkDay50x3Minimal: the same day with the minimal runner (client
// traffic only).
func BenchmarkDay50x3Minimal(b *testing.B) { benchScenario(b, minimalFactory(), dayScenario(50), true) }

// BenchmarkDay50x3Ticking: the same day with reference.Ticking, whose
// client's sync loop ticks every 200 ms without ever parking, as a
// foreign runner's would: about 432,000 events, the per-event cost
// compared with BenchmarkFloor.
func BenchmarkDay50x3Ticking(b *testing.B) {
	benchScenario(b, reference.Ticking, dayScenario(50), true)
}

// BenchmarkHour1000: the reference runner, one client, 1,000 allocs of
// one scheduled task each (hourScenario), one virtual hour, the trace
// discarded: the scale of the clock's queue and of the observation.
func BenchmarkHour1000(b *testing.B) { benchScenario(b, referenceFactory(), hourScenario(1000), true) }

// BenchmarkReplaySeed: one generated scenario (a few virtual minutes,
// faults on) with the reference runner, trace kept: the cost of one
// replay-test run.
func BenchmarkReplaySeed(b *testing.B) {
	benchScenario(b, referenceFactory(), scenario.Generate(7, scenario.Options{}), false)
}

// Floor's virtual day: a 200 ms ticker for 24 hours (432,000 events) and
// 150 idle timers, as many as the day's schedule timers.
const (
	floorTick   = 200 * time.Millisecond
	floorDay    = 24 * time.Hour
	floorTimers = 150
)

// BenchmarkFloor: the bare clock and barrier loop the world is built on,
// for a virtual day: one goroutine receiving from a 200 ms ticker of a
// vclock.Clock whose barrier is synctest.Wait, 150 armed timers far in the
// future, and the world's loop (step.go's runTo and settle without
// observation) advancing to each next deadline, in a bubble. No runner:
// what any simulated run costs per event at least.
func BenchmarkFloor(b *testing.B) { benchFloor(b, false) }

// BenchmarkFloorInStep: BenchmarkFloor with the bubble's own clock kept
// in step with the world's (instep.go): before each advance the loop
// sleeps the bubble to the next deadline (bubbletime.Waiter.Until), as
// the world does for a runner that may read the time package. Its excess
// over BenchmarkFloor is what that costs every event of every world.
func BenchmarkFloorInStep(b *testing.B) { benchFloor(b, true) }

// benchFloor runs floorRun over a virtual day b.N times, the bubble kept
// in step if inStep.
func benchFloor(b *testing.B, inStep bool) {
	var events uint64
	b.ResetTimer()
	for range b.N {
		benchbubble.Run(b, func(t *testing.T) { events += floorRun(t, floorDay, inStep) })
	}
	reportSim(b, events, floorDay)
}

// floorRun is one run of BenchmarkFloor over d, the bubble kept in step
// if inStep (BenchmarkFloorInStep); it returns the events (clock
// advances) it took.
func floorRun(t *testing.T, d time.Duration, inStep bool) uint64 {
	var bubble *bubbletime.Waiter
	var offset time.Duration
	if inStep {
		offset = bubbletime.Align(benchStart)
		bubble = bubbletime.NewWaiter()
	}
	clk := vclock.New(benchStart)
	if err := clk.Err(); err != nil {
		t.Fatal(err)
	}
	clk.SetBarrier(synctest.Wait)
	end := clk.Now().Add(d)
	var stops []func() bool
	for i := range floorTimers {
		tm := clk.AfterFunc(2*d+time.Duration(i)*time.Minute, func() {})
		stops = append(stops, tm.Stop)
	}
	tk := clk.Ticker(floorTick)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-tk.C:
			case <-done:
				return
			}
		}
	})
	var events uint64
	for {
		synctest.Wait()
		next, ok := clk.Next()
		if !ok || next.After(end) {
			break
		}
		if bubble != nil {
			bubble.Until(next.Add(offset))
		}
		clk.Add(next.Sub(clk.Now()))
		events++
	}
	tk.Stop()
	close(done)
	wg.Wait()
	for _, stop := range stops {
		stop()
	}
	return events
}
