package devagent

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/allocsim/allocsim/internal/apiscenario"
	"github.com/cockroachdb/datadriven"
	"github.com/hashicorp/nomad/api"
)

// The `nomad alloc fs` and `nomad alloc logs` calls of the official
// client (issue 14).

// fsAlloc is the alloc of an fs command, read through the API (the
// client's fs calls take the whole alloc).
func (e *agentEnv) fsAlloc(d *datadriven.TestData) (*api.Allocation, string) {
	al, _, err := e.c.Allocations().Info(e.allocID(apiscenario.MustArg(e.t, d, "alloc")), nil)
	if err != nil {
		return nil, apiscenario.Failure(err)
	}
	return al, ""
}

// logs alloc= task= type= [origin=] [offset=] [follow]: a log's content,
// quoted; the stream must end within fsBudget.
func (e *agentEnv) handleLogs(d *datadriven.TestData) string {
	t := e.t
	apiscenario.OnlyArgs(t, d, "alloc", "task", "type", "origin", "offset", "follow")
	al, fail := e.fsAlloc(d)
	if al == nil {
		return fail
	}
	origin := api.OriginStart
	switch o := apiscenario.Arg(t, d, "origin", "start"); o {
	case "start":
	case "end":
		origin = api.OriginEnd
	default:
		d.Fatalf(t, "origin: %q is neither start nor end", o)
	}
	offset, err := strconv.ParseInt(apiscenario.Arg(t, d, "offset", "0"), 10, 64)
	if err != nil {
		d.Fatalf(t, "offset: %v", err)
	}
	cancel := make(chan struct{})
	defer close(cancel)
	frames, errs := e.c.AllocFS().Logs(al, d.HasArg("follow"), apiscenario.MustArg(t, d, "task"), apiscenario.MustArg(t, d, "type"), origin, offset, cancel, nil)
	var b strings.Builder
	for {
		select {
		case f, ok := <-frames:
			if !ok {
				return strconv.Quote(b.String())
			}
			b.Write(f.Data)
		case err := <-errs:
			return apiscenario.Failure(err)
		case <-time.After(fsBudget):
			return fmt.Sprintf("the stream did not end within %v; got %q", fsBudget, b.String())
		}
	}
}

// fs-list alloc= path=: the entries of a dir, "<name> <size>" (dirs end
// in /).
func (e *agentEnv) handleFSList(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc", "path")
	al, fail := e.fsAlloc(d)
	if al == nil {
		return fail
	}
	entries, _, err := e.c.AllocFS().List(al, apiscenario.MustArg(e.t, d, "path"), nil)
	if err != nil {
		return apiscenario.Failure(err)
	}
	var out []string
	for _, fi := range entries {
		out = append(out, fileLine(fi))
	}
	if len(out) == 0 {
		return "empty"
	}
	return strings.Join(out, "\n")
}

// fs-stat alloc= path=: one file, "<name> <size>".
func (e *agentEnv) handleFSStat(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc", "path")
	al, fail := e.fsAlloc(d)
	if al == nil {
		return fail
	}
	fi, _, err := e.c.AllocFS().Stat(al, apiscenario.MustArg(e.t, d, "path"), nil)
	if err != nil {
		return apiscenario.Failure(err)
	}
	return fileLine(fi)
}

func fileLine(fi *api.AllocFileInfo) string {
	if fi.IsDir {
		return fi.Name + "/"
	}
	return fmt.Sprintf("%s %d", fi.Name, fi.Size)
}

// fs-cat alloc= path=: a file's content, quoted.
func (e *agentEnv) handleFSCat(d *datadriven.TestData) string {
	apiscenario.OnlyArgs(e.t, d, "alloc", "path")
	al, fail := e.fsAlloc(d)
	if al == nil {
		return fail
	}
	rc, err := e.c.AllocFS().Cat(al, apiscenario.MustArg(e.t, d, "path"), nil)
	if err != nil {
		return apiscenario.Failure(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return apiscenario.Failure(err)
	}
	return strconv.Quote(string(b))
}
