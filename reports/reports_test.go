package reports

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// sample is a run of three runners: the reference (conforms), a mutant
// the suite catches (meets its expectation), and a mutant the suite
// misses (does not).
func sample() Run {
	pass := func(id string, checks int) Property {
		return Property{ID: id, Specs: []string{id[:len(id)-len("/x")]}, Status: Pass, Checks: checks, Elapsed: 1500 * time.Millisecond}
	}
	return Run{Suite: "allocsim", Commit: "3d8ccd3", Runners: []Runner{
		{Name: "reference", Profile: "full", Properties: []Property{
			pass("SCHED-5/x", 12), pass("SYNC-5/x", 12), pass("HOOKRES-2/x", 12),
		}},
		{Name: "mutant/sched-utc", Profile: "full", ExpectFail: true, Properties: []Property{
			{ID: "SCHED-5/x", Status: Fail, Checks: 1, Seed: 42, Check: 1, Elapsed: 20 * time.Millisecond,
				Violation: `job1.g1[0]/t1 @2024-06-14T13:00:00Z (09:00 EDT): StartTask = none, want at 09:00 <"quoted" & escaped>`,
				Message:   "SCHED-5/x (SCHED-5): ...\n--- violation\n... a trace line with ]]> in it",
				Replay:    "go test ./x -run '^TestX$/^SCHED-5$/^x$' -allocsim.seed=42"},
			pass("SYNC-5/x", 12),
			{ID: "HOOKRES-2/x", Status: Error, Checks: 1, Violation: "checker panicked"},
		}},
		{Name: "mutant/missed", Profile: "client-communication", ExpectFail: true, Properties: []Property{
			{ID: "SCHED-5/x", Status: NotApplicable},
			pass("SYNC-5/x", 12),
		}},
	}}
}

func TestModel(t *testing.T) {
	run := sample()
	must.Eq(t, []string{"HOOKRES", "SCHED", "SYNC"}, run.Areas())
	ref, caught, missed := run.Runners[0], run.Runners[1], run.Runners[2]
	must.True(t, ref.Conforms())
	must.True(t, ref.MeetsExpectation())
	must.False(t, caught.Conforms())
	must.False(t, caught.MeetsExpectation(), must.Sprint("a harness error never meets an expectation"))
	must.True(t, missed.Conforms())
	must.False(t, missed.MeetsExpectation())
	must.False(t, run.OK())
	must.Eq(t, Fail, caught.AreaStatus("SCHED"))
	must.Eq(t, Error, caught.AreaStatus("HOOKRES"))
	must.Eq(t, NotApplicable, missed.AreaStatus("SCHED"))
	must.Eq(t, NotRun, missed.AreaStatus("HOOKRES"), must.Sprint("no HOOKRES property was selected"))
	must.Eq(t, Pass, missed.AreaStatus("SYNC"))
	must.Eq(t, 2, len(caught.Failures()))

	caught.Properties[2].Status = Pass
	must.True(t, caught.MeetsExpectation())
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		file  string
		write func(io.Writer, Run) error
	}{
		{"report.json", WriteJSON},
		{"report.junit.xml", WriteJUnit},
		{"report.md", WriteMarkdown},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var b bytes.Buffer
			must.NoError(t, tc.write(&b, sample()))
			path := filepath.Join("testdata", tc.file)
			if *update {
				must.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
			}
			want, err := os.ReadFile(path)
			must.NoError(t, err, must.Sprint("run go test ./reports -update to write it"))
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("%s differs (-golden +got; go test ./reports -update rewrites it):\n%s", path, diff)
			}
			var again bytes.Buffer
			must.NoError(t, tc.write(&again, sample()))
			must.Eq(t, b.String(), again.String(), must.Sprint("a rendering is a pure function of the run"))
		})
	}
}

func TestJSONRoundTrip(t *testing.T) {
	var b bytes.Buffer
	must.NoError(t, WriteJSON(&b, sample()))
	got, err := ReadJSON(&b)
	must.NoError(t, err)
	must.Eq(t, sample(), got)
	_, err = ReadJSON(bytes.NewReader([]byte("{")))
	must.ErrorContains(t, err, "decode report json")
}

// TestJUnitIsWellFormed decodes the JUnit output back: well-formed XML
// with the counts, the seed property and the replay command in the
// failure text.
func TestJUnitIsWellFormed(t *testing.T) {
	var b bytes.Buffer
	must.NoError(t, WriteJUnit(&b, sample()))
	var got junitSuites
	must.NoError(t, xml.Unmarshal(b.Bytes(), &got))
	must.Eq(t, 8, got.Tests)
	must.Eq(t, 1, got.Failures)
	must.Eq(t, 1, got.Errors)
	must.Eq(t, 1, got.Skipped)
	c := got.Suites[1].Cases[0]
	must.NotNil(t, c.Failure)
	must.StrContains(t, c.Failure.Text, "Replay: go test ./x")
	must.StrContains(t, c.Failure.Text, "with ]]> in it", must.Sprint("CDATA keeps a ]]> in the text"))
	must.NotNil(t, c.Properties)
	must.Eq(t, []junitProperty{{Name: "allocsim.seed", Value: "42"}}, c.Properties.Props)
	dec := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	for {
		if _, err := dec.Token(); err != nil {
			must.True(t, errors.Is(err, io.EOF), must.Sprint(err))
			break
		}
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrors(t *testing.T) {
	for _, write := range []func(io.Writer, Run) error{WriteJSON, WriteJUnit, WriteMarkdown} {
		must.ErrorContains(t, write(failingWriter{}, sample()), "disk full")
	}
}
