package apiscenario

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// Walk runs f on each scenario file under dir (datadriven.Walk), each in
// a subtest named after the file; a failed one logs the command that
// runs it alone and how to accept new output. pkg is the package as go
// test takes it ("./sim/").
func Walk(t *testing.T, pkg, dir string, f func(t *testing.T, name, path string)) {
	t.Helper()
	top := t.Name()
	datadriven.Walk(t, dir, func(t *testing.T, path string) {
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("To reproduce: go test %s -run '^%s$/^%s$' -v\n"+
					"To accept new output: the same with -rewrite, then read the diff of %s", pkg, top, name, path)
			}
		})
		f(t, name, path)
	})
}

// Commands is a suite's command table: each command's handler, by name,
// on the suite's environment E.
type Commands[E any] map[string]func(E, *datadriven.TestData) string

// Run runs directive d on env with its command's handler. Until started,
// start is the only command; an unknown command fails the test.
func (c Commands[E]) Run(t testing.TB, env E, d *datadriven.TestData, started bool) string {
	t.Helper()
	if !started && d.Cmd != "start" {
		d.Fatalf(t, "%s: start first", d.Cmd)
	}
	h, ok := c[d.Cmd]
	if !ok {
		d.Fatalf(t, "unknown command %q", d.Cmd)
	}
	return h(env, d)
}
