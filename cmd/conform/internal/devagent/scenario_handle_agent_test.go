package devagent

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// start [profile=] [path=] [seed=].
func (e *agentEnv) handleStart(d *datadriven.TestData) string {
	t := e.t
	onlyArgs(t, d, "profile", "path", "seed")
	if e.a != nil {
		d.Fatalf(t, "start: the agent is started already")
	}
	cfg := Config{HTTPAddr: "127.0.0.1:0", Profile: schedule.Profile(arg(t, d, "profile", "")), Path: arg(t, d, "path", "")}
	if v := arg(t, d, "seed", ""); v != "" {
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
	onlyArgs(e.t, d)
	return result(e.a.Close(context.Background()))
}

// metrics [suffix=]: /v1/metrics?format=prometheus (promSeries).
func (e *agentEnv) handleMetrics(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "suffix")
	body, err := e.c.Operator().Metrics(&api.QueryOptions{Params: map[string]string{"format": "prometheus"}})
	if err != nil {
		return failure(err)
	}
	return promSeries(string(body), arg(e.t, d, "suffix", ""))
}

// promSeries prints the series of a Prometheus text whose family ends in
// suffix as "<family> <hook_name> <value>", sorted, under one line of the
// labels every one of them has besides hook_name (TELEM-2), or with its
// other labels on each line if they differ.
func promSeries(text, suffix string) string {
	type series struct{ key, others, value string }
	var all []series
	for line := range strings.SplitSeq(text, "\n") {
		name, rest, ok := strings.Cut(line, "{")
		if !ok || strings.HasPrefix(line, "#") || !strings.HasSuffix(name, suffix) {
			continue
		}
		labels, value, _ := strings.Cut(rest, "} ")
		var hook string
		var others []string
		for l := range strings.SplitSeq(labels, ",") {
			if v, ok := strings.CutPrefix(l, "hook_name="); ok {
				hook = strings.Trim(v, `"`)
			} else {
				others = append(others, l)
			}
		}
		all = append(all, series{name + " " + hook, strings.Join(others, ","), value})
	}
	if len(all) == 0 {
		return "none"
	}
	common := true
	for _, s := range all {
		common = common && s.others == all[0].others
	}
	var out []string
	for _, s := range all {
		if common {
			out = append(out, s.key+" "+s.value)
		} else {
			out = append(out, s.key+" {"+s.others+"} "+s.value)
		}
	}
	slices.Sort(out)
	if common {
		out = append([]string{"labels {" + all[0].others + "}"}, out...)
	}
	return strings.Join(out, "\n")
}
