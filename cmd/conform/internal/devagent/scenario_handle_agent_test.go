package devagent

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/allocsim/allocsim/internal/apiscenario"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// start [profile=] [path=] [seed=].
func (e *agentEnv) handleStart(d *datadriven.TestData) string {
	t := e.t
	apiscenario.OnlyArgs(t, d, "profile", "path", "seed")
	if e.a != nil {
		d.Fatalf(t, "start: the agent is started already")
	}
	cfg := Config{HTTPAddr: "127.0.0.1:0", Profile: schedule.Profile(apiscenario.Arg(t, d, "profile", "")), Path: apiscenario.Arg(t, d, "path", "")}
	if v := apiscenario.Arg(t, d, "seed", ""); v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			d.Fatalf(t, "seed: %v", err)
		}
		cfg.Seed = seed
	}
	a, err := Start(cfg)
	if err != nil {
		return "error: " + err.Error()
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	c, err := api.NewClient(&api.Config{Address: a.Addr()})
	if err != nil {
		d.Fatalf(t, "%v", err)
	}
	e.a, e.c = a, c
	return fmt.Sprintf("profile=%s drivers=%s", a.Profile(), strings.Join(a.Drivers(), ","))
}

// close: Close's error, or ok.
func (e *agentEnv) handleClose(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d)
	return apiscenario.Result(e.a.Close(context.Background()))
}

// metrics [suffix=]: /v1/metrics?format=prometheus (apiscenario.PromSeries).
func (e *agentEnv) handleMetrics(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "suffix")
	body, err := e.c.Operator().Metrics(apiscenario.PrometheusQuery())
	if err != nil {
		return apiscenario.Failure(err)
	}
	return apiscenario.PromSeries(string(body), apiscenario.Arg(e.t, d, "suffix", ""))
}
