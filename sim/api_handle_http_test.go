package sim_test

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/internal/apiscenario"
	"github.com/cockroachdb/datadriven"
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
		return apiscenario.Failure(err)
	}
	if len(d.CmdArgs) == 3 {
		return fmt.Sprintf("%d ids: %s", code, strings.Join(apiscenario.UUIDs(string(out)), " "))
	}
	return fmt.Sprintf("%d %s", code, apiscenario.Body(string(out)))
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
// client; the series whose family ends in suffix (apiscenario.PromSeries).
func (e *apiEnv) handleMetrics(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "suffix")
	suffix := apiscenario.Arg(e.t, d, "suffix", "")
	var body []byte
	if err := e.do(func() (err error) {
		body, err = e.c.Operator().Metrics(apiscenario.PrometheusQuery())
		return err
	}); err != nil {
		return apiscenario.Failure(err)
	}
	return apiscenario.PromSeries(string(body), suffix)
}

// endpoints: every endpoint served so far, by method and path pattern.
func (e *apiEnv) handleEndpoints(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d)
	return strings.Join(e.seen.endpoints(), "\n")
}
