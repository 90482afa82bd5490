package main

import (
	"errors"
	"flag"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as the real `conform` inside scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"conform": main})
}

// TestScript runs the end-to-end scripts in testdata/script against the
// conform binary. Besides the standard commands, scripts may use
//
//	exitcode N prog args...
//
// which runs prog and fails unless it exits with code N (stdout and stderr
// are kept for the following stdout/stderr/cmp commands). TZ is UTC unless a
// script sets it. Refresh cmp files with: go test ./cmd/conform -run TestScript -update-scripts
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *updateScripts,
		Setup: func(e *testscript.Env) error {
			e.Setenv("TZ", "UTC")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": exitcode,
		},
	})
}

var updateScripts = flag.Bool("update-scripts", false, "rewrite cmp files inside testdata/script")

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
