package sim_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/internal/apiscenario"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/cockroachdb/datadriven"
)

// start seed=<n> duration=<d>, the fault plan as input.
func (e *apiEnv) handleStart(d *datadriven.TestData) string {
	t := e.t
	apiscenario.OnlyArgs(t, d, "seed", "duration")
	if e.w != nil {
		d.Fatalf(t, "start: the world is started already")
	}
	seed, err := strconv.ParseUint(apiscenario.MustArg(t, d, "seed"), 10, 64)
	if err != nil {
		d.Fatalf(t, "seed: %v", err)
	}
	if e.seed != 0 {
		seed = e.seed
	}
	plan, err := faults.ParsePlan(d.Input)
	if err != nil {
		d.Fatalf(t, "%v", err)
	}
	sc := scenario.Scenario{
		Name: e.name, Seed: seed, Start: apiStart, Duration: scenario.Duration(durationArg(t, d, "duration")),
		LocalZone: "Europe/Berlin", Faults: plan,
	}
	w, err := sim.New(sim.Config{Scenario: sc, Factory: reference.Factory})
	if err != nil {
		d.Fatalf(t, "%v", err)
	}
	if err := w.Start(); err != nil {
		d.Fatalf(t, "%v", err)
	}
	e.w = w
	// A failed test stops before close: tear the world down anyway, so the
	// bubble ends with no goroutine left and the failure is what shows.
	t.Cleanup(func() {
		if !e.closed {
			_ = w.Close()
		}
	})
	e.c = e.client(schedule.ProfileEnt)
	return e.now()
}

// advance to=<15:04[:05]> | by=<d>: prints the time reached.
func (e *apiEnv) handleAdvance(d *datadriven.TestData) string {
	t := e.t
	apiscenario.OnlyArgs(t, d, "to", "by")
	switch {
	case d.HasArg("by"):
		e.w.Advance(durationArg(t, d, "by"))
	case d.HasArg("to"):
		v := apiscenario.MustArg(t, d, "to")
		clock, err := time.Parse("15:04:05", v)
		if err != nil {
			clock, err = time.Parse("15:04", v)
		}
		if err != nil {
			d.Fatalf(t, "to: want 15:04 or 15:04:05: %v", err)
		}
		now := e.w.Now().UTC()
		target := time.Date(now.Year(), now.Month(), now.Day(), clock.Hour(), clock.Minute(), clock.Second(), 0, time.UTC)
		if target.Before(now) {
			d.Fatalf(t, "advance: %s is before now (%s)", v, e.now())
		}
		e.w.Advance(target.Sub(now))
	default:
		d.Fatalf(t, "advance: give to= or by=")
	}
	return e.now()
}

// run-until alloc= [task=] [status=] [state=] [events= [type=]] within=:
// advances until the server's view of the alloc meets every condition
// (status: one of those given).
func (e *apiEnv) handleRunUntil(d *datadriven.TestData) string {
	u := apiscenario.ParseUntil(e.t, d)
	id, within := e.allocID(u.Alloc), durationArg(e.t, d, "within")
	ok := e.w.RunUntil(func() bool {
		a := e.w.Server().Alloc(id)
		return a != nil && u.Met(a)
	}, within)
	if !ok {
		return fmt.Sprintf("not within %v: now %s", within, e.now())
	}
	return "reached at " + e.now()
}

// forwards: the client RPCs the simulated network forwarded to the node
// (API-7's server path; the network traces them as "forward").
func (e *apiEnv) handleForwards(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d)
	counts := map[string]int{}
	for _, rec := range e.w.Trace().Records() {
		if rec.Kind == trace.KindRPC && rec.Msg == "forward" {
			counts[rec.Op]++
		}
	}
	if len(counts) == 0 {
		return "none"
	}
	var out []string
	for method, n := range counts {
		out = append(out, fmt.Sprintf("%s %d", method, n))
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

// network: whether the simulated network is partitioned.
func (e *apiEnv) handleNetwork(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d)
	if e.w.Network().Partitioned() {
		return "partitioned"
	}
	return "connected"
}

// close: ends the run; prints the world's violations, or ok.
func (e *apiEnv) handleClose(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d)
	if e.closed {
		d.Fatalf(e.t, "close: closed already")
	}
	e.closed = true
	return apiscenario.Result(e.w.Close())
}
