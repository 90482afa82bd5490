package apiscenario

import (
	"slices"
	"strings"

	"github.com/hashicorp/nomad/api"
)

// PrometheusQuery asks /v1/metrics for the Prometheus text format
// (Operator().Metrics).
func PrometheusQuery() *api.QueryOptions {
	return &api.QueryOptions{Params: map[string]string{"format": "prometheus"}}
}

// PromSeries prints the series of a Prometheus text whose family ends in
// suffix as "<family> <hook_name> <value>", sorted, under one line of the
// labels every one of them has besides hook_name (TELEM-2), or with its
// other labels on each line if they differ; then a line for each family
// and hook name that has a second series. "none" if no series matches.
func PromSeries(text, suffix string) string {
	type series struct{ key, others, value string }
	var all []series
	seen := map[string]bool{}
	var dups []string
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
		key := name + " " + hook
		if seen[key] {
			dups = append(dups, key+": a second series")
		}
		seen[key] = true
		all = append(all, series{key, strings.Join(others, ","), value})
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
	return strings.Join(append(out, dups...), "\n")
}
