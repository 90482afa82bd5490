package reports

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/properties"
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
	must.Eq(t, []string{
		"ARTIFACTS/HOOKRES-4_no-nil-read-seed-7836346822736477725.trace.jsonl",
		"ARTIFACTS/HOOKRES-4_no-nil-read-seed-7836346822736477725.scenario.json",
	}, p.Artifacts)
	must.StrHasPrefix(t, "scenario\nscenario ", p.Scenario)
	must.StrContains(t, p.Scenario, "\nscenario \"HOOKRES-4/no-nil-read\" seed=7836346822736477725\n")
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

// TestAttributesAreTheSuites: the attribute keys read here are the ones
// properties.Run sets.
func TestAttributesAreTheSuites(t *testing.T) {
	must.Eq(t, properties.AttrSpecs, attrSpecs)
	must.Eq(t, properties.AttrDoc, attrDoc)
	must.Eq(t, properties.AttrChecks, attrChecks)
	must.Eq(t, properties.AttrTruncated, attrTruncated)
	must.Eq(t, properties.AttrSeed, attrSeed)
	must.Eq(t, properties.AttrProperties, attrTotal)
	must.Eq(t, properties.AttrPlan, attrPlan)
	must.Eq(t, properties.AttrSituations, attrSituation)
	must.Eq(t, properties.AttrRunning, attrRunning)
}

// TestParseTestJSONDiedInACheck: a test binary that dies in a check (a
// runner's goroutine panicking) leaves the property without a verdict
// but with the check and seed it was in.
func TestParseTestJSONDiedInACheck(t *testing.T) {
	ev := func(action, test, extra string) string {
		return `{"Action":"` + action + `","Package":"p","Test":"` + test + `"` + extra + "}\n"
	}
	const prop = "TestConform/SYNC-5/nothing-before-contact"
	stream := ev("run", "TestConform", "") +
		ev("attr", "TestConform", `,"Key":"allocsim.properties","Value":"2"`) +
		ev("run", "TestConform/SYNC-5", "") +
		ev("run", prop, "") +
		ev("attr", prop, `,"Key":"allocsim.running","Value":"1 11"`) +
		ev("attr", prop, `,"Key":"allocsim.running","Value":"2 22"`) +
		`{"Action":"output","Package":"p","Output":"panic: runner goroutine: boom\n"}` + "\n" +
		`{"Action":"fail","Package":"p","Elapsed":1}` + "\n"
	var tp TestParser
	for _, l := range strings.SplitAfter(stream, "\n") {
		if l != "" {
			tp.Line([]byte(strings.TrimSuffix(l, "\n")))
		}
	}
	out := tp.Output()
	must.True(t, out.Failed)
	must.Eq(t, 2, out.Runs[0].Total)
	p := out.Runs[0].Properties[0]
	must.Eq(t, Status(""), p.Status)
	must.Eq(t, 2, p.Check)
	must.Eq(t, uint64(22), p.Seed)
	must.StrContains(t, strings.Join(out.Output, "\n"), "panic: runner goroutine: boom")
}
