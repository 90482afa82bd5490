package reports

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

func parseFile(t *testing.T, name string) TestOutput {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	must.NoError(t, err)
	defer f.Close()
	out, err := ParseTestJSON(f)
	must.NoError(t, err)
	return out
}

// TestParseTestJSONFailure: a mutant's failing property, recorded from
// go test -json (times and artifact paths scrubbed).
func TestParseTestJSONFailure(t *testing.T) {
	out := parseFile(t, "gotest.mutant.json")
	must.True(t, out.Failed)
	must.Eq(t, 1, len(out.Runs))
	run := out.Runs[0]
	must.Eq(t, "TestConform", run.Root)
	must.False(t, run.Passed)
	must.Eq(t, 1, len(run.Properties))
	p := run.Properties[0]
	must.Eq(t, "HOOKRES-4/no-nil-read", p.ID)
	must.Eq(t, Fail, p.Status)
	must.Eq(t, uint64(7836346822736477725), p.Seed)
	must.Eq(t, 2, p.Check)
	must.StrHasPrefix(t, "job1.g1[0]/t1 @2024-12-31T23:55:14Z: prestart hook volumes = volumes: panic:", p.Violation)
	must.Eq(t, "go test . -run '^TestConform$/^HOOKRES-4$/^no-nil-read$' -allocsim.seed=7836346822736477725", p.Replay)
	must.StrHasPrefix(t, "HOOKRES-4/no-nil-read (HOOKRES-4, HOOKRES-1, HOOKRES-3): ", p.Message)
	must.StrContains(t, p.Message, "\n--- violation\n")
	must.StrContains(t, p.Message, "\n--- artifacts\nARTIFACTS/")
	must.Positive(t, p.Elapsed)
}

func TestParseTestJSONPass(t *testing.T) {
	out := parseFile(t, "gotest.reference.json")
	must.False(t, out.Failed)
	must.Eq(t, 1, len(out.Runs), must.Sprint("two Run calls under one root are one run"))
	var ids []string
	for _, p := range out.Runs[0].Properties {
		ids = append(ids, p.ID)
		must.Eq(t, Pass, p.Status)
		must.Eq(t, 250*time.Millisecond, p.Elapsed)
		must.Eq(t, "", p.Message)
	}
	must.Eq(t, []string{"HOOKRES-4/no-nil-read", "TELEM-2/exact-labels"}, ids)
	must.True(t, out.Runs[0].Passed)
}

func TestParseTestJSONBuildFailure(t *testing.T) {
	stream := "# example.com/r\n./r.go:3:1: syntax error: non-declaration statement outside function body\n" +
		`{"Action":"start","Package":"example.com/r"}` + "\n" +
		`{"Action":"output","Package":"example.com/r","Output":"FAIL\texample.com/r [build failed]\n"}` + "\n" +
		`{"Action":"fail","Package":"example.com/r","Elapsed":0}` + "\n"
	out, err := ParseTestJSON(strings.NewReader(stream))
	must.NoError(t, err)
	must.True(t, out.Failed)
	must.SliceEmpty(t, out.Runs)
	must.StrContains(t, strings.Join(out.Output, "\n"), "syntax error")
	must.StrContains(t, strings.Join(out.Output, "\n"), "[build failed]")
}

func TestSplitTest(t *testing.T) {
	for name, want := range map[string]string{
		"TestX/SCHED-5/inside-windows-only": "SCHED-5/inside-windows-only",
		"TestX/SCHED-5":                     "",
		"TestX":                             "",
		"TestX/a/b/c":                       "",
	} {
		_, id, ok := splitTest(name)
		must.Eq(t, want, id, must.Sprint(name))
		must.Eq(t, want != "", ok, must.Sprint(name))
	}
}
