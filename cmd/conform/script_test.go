package main

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/shoenig/test/must"
)

// TestMain lets the test binary act as the `conform` of the scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"conform": func() {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, scriptEnv()))
	}})
}

// update rewrites the expected outputs of the scripts.
var update = flag.Bool("update", false, "rewrite the cmp files inside testdata/script from the outputs")

// TestScript runs the end-to-end scripts in testdata/script against the
// conform binary: the CLI's golden tests (STYLE 16). Each case runs
// conform with its arguments, checks the exit code, and compares stdout
// and stderr: exactly with `cmp stdout FILE` (FILE in the script's
// archive) or `! stdout .` for nothing, or by regular expression. Besides
// the standard commands, scripts may use
//
//	exitcode N prog args...
//
// which runs prog and fails unless it exits with code N (stdout and stderr
// are kept for the following stdout/stderr/cmp commands).
//
// The conform of the scripts is main's, with two test settings: printed
// commands invoke it as "conform" (what the scripts run), and the clock
// reads CONFORM_TEST_NOW (RFC 3339) when a script sets it. TZ is UTC
// unless a script sets it.
//
// When an output changes on purpose, rewrite the archives' files with
//
//	go test ./cmd/conform -run TestScript -update
//
// and review the diff of testdata/script.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(e *testscript.Env) error {
			e.Setenv("TZ", "UTC")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": exitcode,
		},
	})
}

// testNowVar fixes the clock of the scripts' conform.
const testNowVar = "CONFORM_TEST_NOW"

// scriptEnv is the production environment with the scripts' settings.
func scriptEnv() environment {
	env := production()
	env.self = "conform"
	if v := os.Getenv(testNowVar); v != "" {
		now, err := time.Parse(time.RFC3339, v)
		if err != nil {
			panic(testNowVar + ": " + err.Error())
		}
		env.now = func() time.Time { return now }
	}
	return env
}

// testEnv is a fixed clock (2024-07-01 12:00 EDT) and New York as the
// machine's zone, for the tests that run conform in process.
func testEnv(t testing.TB) environment {
	nyc, err := time.LoadLocation("America/New_York")
	must.NoError(t, err)
	return environment{
		now:   func() time.Time { return time.Date(2024, 7, 1, 16, 0, 0, 0, time.UTC) },
		local: nyc,
	}
}

func exitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N prog args...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			ts.Fatalf("running %s: %v", args[1], err)
		}
		got = exitErr.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with code %d, want %d", args[1], got, want)
	}
}
