package testbin

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/shoenig/test/must"
)

// worker is testdata/worker, a module of its own.
const worker = "testdata/worker"

func build(t *testing.T, pkg string) (Binary, error) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	return Compile(context.Background(), Build{Dir: worker, Pkg: pkg, ImportPath: "example.com/worker",
		Out: filepath.Join(t.TempDir(), "worker.test"), Env: []string{"GOWORK=off", "GOFLAGS=-mod=mod"}})
}

// TestRunOneTest: a named test runs in its package's directory; its
// stdout and stderr arrive as go test -json events of the package, the
// lines come back whole (test2json splits the 5,005-byte one), and Exit
// says how it ended.
func TestRunOneTest(t *testing.T) {
	bin, err := build(t, ".")
	must.NoError(t, err)
	must.EqOp(t, filepath.Join(worker, "."), bin.Dir)

	var events []string
	var lines Lines
	var printed []string
	exit, err := bin.Run(context.Background(), []string{"-test.run=^TestWork$", "-worker.mode=lines"}, func(ev []byte) {
		events = append(events, string(ev))
		printed = append(printed, lines.Event(ev)...)
	})
	must.NoError(t, err)
	must.NoError(t, exit.Err)
	must.Positive(t, exit.Elapsed)
	must.StrContains(t, events[0], `"Action":"start","Package":"example.com/worker"`)
	must.StrContains(t, events[len(events)-1], `"Action":"pass","Package":"example.com/worker"`)
	must.Eq(t, []string{"result 1", "long " + strings.Repeat("x", 5000), "on stderr", "file here", "PASS"}, printed)
	must.EqOp(t, "", lines.Rest())
	split := 0
	for _, ev := range events {
		if text, ok := Output([]byte(ev)); ok && strings.HasPrefix(text, "xxx") {
			split++
		}
	}
	must.Positive(t, split, must.Sprint("the long line came in several events"))

	// How it ended: the binary's own exit code, its output still read.
	printed = nil
	exit, err = bin.Run(context.Background(), []string{"-test.run=^TestWork$", "-worker.mode=exit"}, func(ev []byte) {
		printed = append(printed, lines.Event(ev)...)
	})
	must.NoError(t, err)
	var exitErr *exec.ExitError
	must.True(t, errors.As(exit.Err, &exitErr))
	must.EqOp(t, 3, exitErr.ExitCode())
	must.Eq(t, []string{"exiting"}, printed)
}

// TestStreamIsTest2json: the stream of a binary that dies in a test is
// the one `go tool test2json` writes when it runs the binary itself,
// ending with the test's "fail" (times aside).
func TestStreamIsTest2json(t *testing.T) {
	bin, err := build(t, ".")
	must.NoError(t, err)
	args := []string{"-test.v=test2json", "-test.run=^TestWork$", "-worker.mode=exit"}
	var got []string
	_, err = bin.Run(context.Background(), args, func(ev []byte) { got = append(got, untimed(ev)) })
	must.NoError(t, err)
	cmd := exec.Command("go", append([]string{"tool", "test2json", "-t", "-p", bin.ImportPath, bin.Path}, args...)...)
	cmd.Dir = bin.Dir
	out, err := cmd.Output()
	must.Error(t, err, must.Sprint("test2json exits 1 for a binary that failed"))
	var want []string
	for _, ev := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		want = append(want, untimed([]byte(ev)))
	}
	must.Eq(t, want, got)
	must.StrContains(t, got[len(got)-1], `{"Action":"fail","Package":"example.com/worker","Test":"TestWork"}`)
}

var timing = regexp.MustCompile(`"Time":"[^"]*",|,"Elapsed":[0-9.e-]+`)

func untimed(ev []byte) string { return timing.ReplaceAllString(string(ev), "") }

// TestRunOneBenchmark: a benchmark's process reports its own rusage.
func TestRunOneBenchmark(t *testing.T) {
	bin, err := build(t, ".")
	must.NoError(t, err)
	var out strings.Builder
	exit, err := bin.Run(context.Background(), []string{"-test.run=^$", "-test.bench=^BenchmarkAlloc$", "-test.benchtime=1x"}, func(ev []byte) {
		if text, ok := Output(ev); ok {
			out.WriteString(text)
		}
	})
	must.NoError(t, err)
	must.NoError(t, exit.Err)
	must.StrContains(t, out.String(), "BenchmarkAlloc")
	must.StrHasSuffix(t, "PASS\n", out.String())
	must.Positive(t, exit.CPU)
	if runtime.GOOS == "linux" {
		must.Greater(t, 64<<20, exit.MaxRSS, must.Sprint("the benchmark's 64 MiB, not test2json's"))
	}
}

// TestCompileErrors: a package without tests and one that does not
// build.
func TestCompileErrors(t *testing.T) {
	_, err := build(t, "./notests")
	must.ErrorIs(t, err, ErrNoTestFiles)
	_, err = build(t, "./broken")
	var goErr *GoError
	must.True(t, errors.As(err, &goErr))
	must.Eq(t, "test", goErr.Args[0])
	must.StrContains(t, goErr.Output, "broken_test.go")
	must.StrContains(t, err.Error(), "go test -c -o ")
}

// TestContextEnds: Run returns ctx's error when ctx ends the binary.
func TestContextEnds(t *testing.T) {
	bin, err := build(t, ".")
	must.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = bin.Run(ctx, []string{"-test.run=^TestWork$"}, func([]byte) {})
	must.ErrorIs(t, err, context.Canceled)
}

func TestModuleDir(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	dir, err := ModuleDir(context.Background(), "", ".", "github.com/allocsim/allocsim")
	must.NoError(t, err)
	root, err := filepath.Abs("../..")
	must.NoError(t, err)
	must.EqOp(t, root, dir)
}

// TestRunGoKeepsStderrOut: what the go command prints on standard error
// (the modules it downloads, on a fresh cache) is not in RunGo's result,
// which callers decode, and is in its error's Output.
func TestRunGoKeepsStderrOut(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake go command is a shell script")
	}
	fake := filepath.Join(t.TempDir(), "go")
	script := "#!/bin/sh\necho 'go: downloading example.com/m v1.0.0' >&2\necho '{\"Dir\":\"/x\"}'\nexit ${FAIL:-0}\n"
	must.NoError(t, os.WriteFile(fake, []byte(script), 0o755))
	out, err := RunGo(context.Background(), fake, t.TempDir(), nil, "list", "-json")
	must.NoError(t, err)
	must.EqOp(t, "{\"Dir\":\"/x\"}\n", string(out))
	_, err = RunGo(context.Background(), fake, t.TempDir(), []string{"FAIL=3"}, "list", "-json")
	var ge *GoError
	must.True(t, errors.As(err, &ge))
	must.StrContains(t, ge.Output, "go: downloading example.com/m v1.0.0")
	must.StrContains(t, ge.Output, "{\"Dir\":\"/x\"}")
}
