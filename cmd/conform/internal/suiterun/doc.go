// Package suiterun runs the conformance suite against runners from
// outside a test binary, the way gotestsum drives go test: synctest
// bubbles exist only under testing, so each runner is checked by a test
// binary (the built-in runners' TestSuite in cmd/conform/internal/runners,
// or, for a runner in another module, a one-test module generated around
// its factory), built once and run by internal/testbin (a process per
// runner, or, when a lone runner has CPUs to spare, per shard of its
// properties, the shards taken from a queue by a process a CPU: split.go;
// its output as go test -json events), and the event stream is
// read into the reports model as it arrives (reports.TestParser), with a
// progress callback per finished property.
package suiterun
