package apiscenario

import (
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// Arg returns the value of key, or def if the directive does not give it.
func Arg(t testing.TB, d *datadriven.TestData, key, def string) string {
	t.Helper()
	a, ok := d.Arg(key)
	if !ok {
		return def
	}
	return a.SingleVal(t)
}

// MustArg returns the value of key, which the directive must give.
func MustArg(t testing.TB, d *datadriven.TestData, key string) string {
	t.Helper()
	a, ok := d.Arg(key)
	if !ok {
		d.Fatalf(t, "%s: missing argument %s", d.Cmd, key)
	}
	return a.SingleVal(t)
}

// OnlyArgs fails on an argument the command does not take (a typo would
// otherwise be a silently different scenario).
func OnlyArgs(t testing.TB, d *datadriven.TestData, keys ...string) {
	t.Helper()
	for _, a := range d.CmdArgs {
		if !slices.Contains(keys, a.Key) {
			d.Fatalf(t, "%s: unknown argument %q (takes %s)", d.Cmd, a.Key, strings.Join(keys, ", "))
		}
	}
}
