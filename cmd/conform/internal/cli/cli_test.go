package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/shoenig/test/must"
)

func TestExitCode(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, ExitOK},
		{"plain failure", errors.New("disk full"), ExitFailure},
		{"usage", Usagef("missing --start"), ExitUsage},
		{"wrapped usage", fmt.Errorf("outer: %w", Usage(errors.New("bad"))), ExitUsage},
		{"tool", fmt.Errorf("run: %w", Tool(errors.New("build failed"))), ExitTool},
		{"nil tool", Tool(nil), ExitOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.Eq(t, tc.want, ExitCode(tc.err))
		})
	}
}

func TestUsageKeepsMessageAndCause(t *testing.T) {
	must.NoError(t, Usage(nil))
	cause := errors.New("cron.end must contain 2 fields")
	err := Usage(cause)
	must.EqError(t, err, "cron.end must contain 2 fields")
	must.ErrorIs(t, err, cause)
	must.True(t, IsUsage(err))
	must.False(t, IsUsage(cause))
}

func TestReport(t *testing.T) {
	cases := []struct {
		name       string
		err        error
		wantCode   int
		wantStderr string
	}{
		{"success prints nothing", nil, 0, ""},
		{"failure", errors.New("writing: broken pipe"), 1, "conform schedule: writing: broken pipe\n"},
		{"usage adds the help pointer", Usagef("missing --end"), 2,
			"conform schedule: missing --end\nRun 'conform schedule --help' for usage.\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			must.Eq(t, tc.wantCode, Report(&stderr, "schedule", tc.err))
			must.Eq(t, tc.wantStderr, stderr.String())
		})
	}
}

func TestParseFlags(t *testing.T) {
	help := func(w io.Writer) { fmt.Fprint(w, "HELP\n") }
	newFS := func() (*flag.FlagSet, *int) {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		return fs, fs.Int("n", 0, "")
	}

	t.Run("help goes to stdout", func(t *testing.T) {
		for _, arg := range []string{"-h", "--help", "-help"} {
			fs, _ := newFS()
			var stdout bytes.Buffer
			helped, err := ParseFlags(fs, []string{arg}, &stdout, help)
			must.NoError(t, err)
			must.True(t, helped)
			must.Eq(t, "HELP\n", stdout.String())
		}
	})
	t.Run("bad flags are usage errors and print nothing", func(t *testing.T) {
		for _, args := range [][]string{{"--nope"}, {"-n", "abc"}} {
			fs, _ := newFS()
			var stdout bytes.Buffer
			helped, err := ParseFlags(fs, args, &stdout, help)
			must.False(t, helped)
			must.True(t, IsUsage(err), must.Sprint(err))
			must.Eq(t, "", stdout.String())
		}
	})
	t.Run("values and IsSet", func(t *testing.T) {
		fs, n := newFS()
		_, err := ParseFlags(fs, []string{"-n", "0"}, io.Discard, help)
		must.NoError(t, err)
		must.Eq(t, 0, *n)
		must.True(t, IsSet(fs, "n"))

		fs, _ = newFS()
		_, err = ParseFlags(fs, nil, io.Discard, help)
		must.NoError(t, err)
		must.False(t, IsSet(fs, "n"))
	})
}

func TestReportVerbatim(t *testing.T) {
	var b strings.Builder
	code := Report(&b, "alloc pause", Verbatim(errors.New("Alloc ID must contain at least two characters.")))
	if code != ExitFailure || b.String() != "Alloc ID must contain at least two characters.\n" {
		t.Fatalf("Report(verbatim) = %d, %q", code, b.String())
	}
	if Verbatim(nil) != nil {
		t.Fatal("Verbatim(nil) != nil")
	}
	u := Usagef("bad flag")
	if Verbatim(u) != u {
		t.Fatal("Verbatim(usage) must stay a usage error")
	}
	if (&VerbatimError{Err: u}).Unwrap() != u {
		t.Fatal("Unwrap")
	}
}

func TestListFlag(t *testing.T) {
	var l ListFlag
	must.NoError(t, l.Set("a, b"))
	must.NoError(t, l.Set(""))
	must.NoError(t, l.Set("c"))
	must.Eq(t, ListFlag{"a", "b", "c"}, l)
	must.Eq(t, "a,b,c", l.String())
}
