package sim_test

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// raw <method> <path> [ids], the body as input: one request sent as is
// through the official client's HTTP client; prints the status and the
// body, or with ids only the IDs the body names.
func (e *apiEnv) handleRaw(d *datadriven.TestData) string {
	t := e.t
	if len(d.CmdArgs) < 2 || len(d.CmdArgs) > 3 || len(d.CmdArgs[0].Vals) > 0 ||
		len(d.CmdArgs) == 3 && d.CmdArgs[2].String() != "ids" {
		d.Fatalf(t, "raw: want raw <method> <path> [ids]")
	}
	method, path := d.CmdArgs[0].Key, e.expand(d, d.CmdArgs[1].String())
	var code int
	var out []byte
	if err := e.do(func() error {
		var rd io.Reader = http.NoBody
		if d.Input != "" {
			rd = strings.NewReader(d.Input)
		}
		req, err := http.NewRequest(method, agent.InMemoryAddress+path, rd)
		if err != nil {
			return err
		}
		resp, err := e.c.Raw().Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		code = resp.StatusCode
		out, err = io.ReadAll(resp.Body)
		return err
	}); err != nil {
		return failure(err)
	}
	if len(d.CmdArgs) == 3 {
		ids := uuidPattern.FindAllString(string(out), -1)
		return fmt.Sprintf("%d ids: %s", code, strings.Join(ids, " "))
	}
	return fmt.Sprintf("%d %s", code, body(string(out)))
}

// allocRef is {<alloc>} or {<alloc>:<n>} in a path or a prefix.
var allocRef = regexp.MustCompile(`\{([^{}:]+)(?::(\d+))?\}`)

// expand replaces each {<alloc>} of s by the alloc's ID, {<alloc>:<n>} by
// its first n characters.
func (e *apiEnv) expand(d *datadriven.TestData, s string) string {
	return allocRef.ReplaceAllStringFunc(s, func(ref string) string {
		m := allocRef.FindStringSubmatch(ref)
		id := e.allocID(m[1])
		if m[2] == "" {
			return id
		}
		n, _ := strconv.Atoi(m[2])
		if n > len(id) {
			d.Fatalf(e.t, "%s: the ID %s has fewer than %d characters", ref, id, n)
		}
		return id[:n]
	})
}

// metrics [suffix=]: /v1/metrics?format=prometheus through the official
// client; the series whose family ends in suffix (promSeries).
func (e *apiEnv) handleMetrics(d *datadriven.TestData) string {
	onlyArgs(e.t, d, "suffix")
	suffix := arg(e.t, d, "suffix", "")
	var body []byte
	if err := e.do(func() (err error) {
		body, err = e.c.Operator().Metrics(&api.QueryOptions{Params: map[string]string{"format": "prometheus"}})
		return err
	}); err != nil {
		return failure(err)
	}
	return promSeries(string(body), suffix)
}

// promSeries prints the series of a Prometheus text whose family ends in
// suffix as "<family> <hook_name> <value>", sorted, under one line of the
// labels every one of them has besides hook_name (TELEM-2), or with its
// other labels on each line if they differ.
func promSeries(text, suffix string) string {
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

// endpoints: every endpoint served so far, by method and path pattern.
func (e *apiEnv) handleEndpoints(d *datadriven.TestData) string {
	onlyArgs(e.t, d)
	return strings.Join(e.seen.endpoints(), "\n")
}
