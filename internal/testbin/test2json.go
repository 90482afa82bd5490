package testbin

import (
	"context"
	"os/exec"
	"strings"
	"sync"
)

// test2jsonPaths caches, per go command, the test2json executable `go
// tool -n test2json` names: `go tool test2json` starts the go command
// first, a quarter of a CPU-second (and a third of a second of wall) per
// run against 10 ms for test2json alone, paid by every process of a
// sweep's chunks.
var test2jsonPaths sync.Map // go command → path ("": not found)

// test2json returns the command that runs test2json with args: the
// executable `go tool -n test2json` names, when it does, else `go tool
// test2json` itself.
func test2json(ctx context.Context, gocmd string, args ...string) *exec.Cmd {
	path, ok := test2jsonPaths.Load(gocmd)
	if !ok {
		out, err := exec.CommandContext(ctx, gocmd, "tool", "-n", "test2json").Output()
		p := strings.TrimSpace(string(out))
		if err != nil || strings.ContainsAny(p, "\n ") {
			p = ""
		}
		path, _ = test2jsonPaths.LoadOrStore(gocmd, p)
	}
	if p := path.(string); p != "" {
		return exec.CommandContext(ctx, p, args...)
	}
	return exec.CommandContext(ctx, gocmd, append([]string{"tool", "test2json"}, args...)...)
}
