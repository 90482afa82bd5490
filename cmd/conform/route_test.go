package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

// TestLookup routes multi-word names the way later subcommands (`job run`,
// `alloc pause`) will need.
func TestLookup(t *testing.T) {
	table := []command{{name: "schedule"}, {name: "job run"}, {name: "job status"}, {name: "alloc pause"}, {name: "run"}}
	cases := []struct {
		args     []string
		wantName string
		wantRest []string
		wantErr  string
	}{
		{args: []string{"schedule", "--json"}, wantName: "schedule", wantRest: []string{"--json"}},
		{args: []string{"job", "run", "-x", "y"}, wantName: "job run", wantRest: []string{"-x", "y"}},
		{args: []string{"job", "status"}, wantName: "job status", wantRest: []string{}},
		{args: []string{"run", "job"}, wantName: "run", wantRest: []string{"job"}},
		{args: []string{"job"}, wantErr: `"job" needs a subcommand: job run, job status`},
		{args: []string{"job", "stop"}, wantErr: `"job" needs a subcommand: job run, job status`},
		{args: []string{"alloc"}, wantErr: `"alloc" needs a subcommand: alloc pause`},
		{args: []string{"agentx"}, wantErr: `unknown command "agentx"`},
	}
	for _, tc := range cases {
		cmd, rest, err := lookup(table, tc.args)
		if tc.wantErr != "" {
			must.EqError(t, err, tc.wantErr)
			continue
		}
		must.NoError(t, err)
		must.Eq(t, tc.wantName, cmd.name)
		must.Eq(t, tc.wantRest, rest)
	}
}

func TestRunHelpForms(t *testing.T) {
	env := testEnv(t)
	capture := func(args ...string) (string, string, int) {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr, env)
		return stdout.String(), stderr.String(), code
	}
	root, _, code := capture("help")
	must.Eq(t, 0, code)
	must.StrContains(t, root, "  schedule ")
	for _, form := range []string{"--help", "-h", "-help"} {
		out, errOut, code := capture(form)
		must.Eq(t, 0, code)
		must.Eq(t, root, out)
		must.Eq(t, "", errOut)
	}
	// With no arguments the same text goes to stderr, exit 2.
	out, errOut, code := capture()
	must.Eq(t, 2, code)
	must.Eq(t, "", out)
	must.Eq(t, root, errOut)

	sched, _, code := capture("schedule", "--help")
	must.Eq(t, 0, code)
	helped, errOut, code := capture("help", "schedule")
	must.Eq(t, 0, code)
	must.Eq(t, "", errOut)
	must.Eq(t, sched, helped)

	for _, args := range [][]string{{"help", "nope"}, {"help", "schedule", "extra"}} {
		out, errOut, code := capture(args...)
		must.Eq(t, 2, code)
		must.Eq(t, "", out)
		must.StrContains(t, errOut, "conform help: unknown command")
	}
}

// TestEmbedsTZData: SPEC SCHED-4 requires the binary to embed time/tzdata.
// A blank import in main.go is the only way; check it is there.
func TestEmbedsTZData(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ImportsOnly)
	must.NoError(t, err)
	found := false
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		must.NoError(t, err)
		if path == "time/tzdata" && imp.Name != nil && imp.Name.Name == "_" {
			found = true
		}
	}
	must.True(t, found, must.Sprint(`main.go must import _ "time/tzdata"`))
}

func TestProductionEnvironment(t *testing.T) {
	env := production()
	must.NotNil(t, env.now)
	must.Eq(t, time.Local, env.local)
	// The schedule command answers with the production adapters too.
	code := run([]string{"schedule", "--start", "0 9 * * * *", "--end", "0 17", "--timezone", "UTC"}, io.Discard, io.Discard, env)
	must.Eq(t, 0, code)
}
