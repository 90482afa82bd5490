package jobspec

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/structs"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the parser's output")

const (
	fixturesDir = "../../fixtures/jobs"
	goldenDir   = "testdata/golden"
)

// goldenDoc is what a golden file holds: the parsed job and its warnings.
// It is itself a valid JSON jobspec ({"Job": ...}; Warnings is ignored).
type goldenDoc struct {
	Job      *structs.Job
	Warnings []string
}

func fixtureNames(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(fixturesDir)
	must.NoError(t, err)
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	must.SliceLen(t, 5, out, must.Sprint("fixtures/jobs should hold the five example jobspecs"))
	return out
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(fixturesDir, name))
	must.NoError(t, err)
	return src
}

func render(t *testing.T, job *structs.Job, warns []Warning) []byte {
	t.Helper()
	doc := goldenDoc{Job: job, Warnings: []string{}}
	for _, w := range warns {
		doc.Warnings = append(doc.Warnings, w.String())
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	must.NoError(t, err)
	return append(out, '\n')
}

func TestGolden(t *testing.T) {
	for _, name := range fixtureNames(t) {
		t.Run(name, func(t *testing.T) {
			job, warns, err := Parse(name, readFixture(t, name))
			must.NoError(t, err)
			got := render(t, job, warns)
			path := filepath.Join(goldenDir, name+".json")
			if *update {
				must.NoError(t, os.WriteFile(path, got, 0o644))
			}
			want, err := os.ReadFile(path)
			must.NoError(t, err, must.Sprint("run go test ./impl/jobspec -run TestGolden -update"))
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Fatalf("Parse(%s) differs from %s (-want +got):\n%s", name, path, diff)
			}

			// The golden file is a register body: it parses back to the job.
			back, _, err := ParseJSON(path, want)
			must.NoError(t, err)
			if diff := cmp.Diff(job, back); diff != "" {
				t.Fatalf("ParseJSON(%s) (-parsed +golden):\n%s", path, diff)
			}
		})
	}
}

// TestGoldenNoStale: every golden file belongs to a fixture.
func TestGoldenNoStale(t *testing.T) {
	fixtures := map[string]bool{}
	for _, name := range fixtureNames(t) {
		fixtures[name+".json"] = true
	}
	entries, err := os.ReadDir(goldenDir)
	must.NoError(t, err)
	for _, e := range entries {
		must.True(t, fixtures[e.Name()], must.Sprintf("stale golden file %s", e.Name()))
	}
	must.MapLen(t, len(entries), fixtures)
}

// TestFixtureTwins: each JSON fixture with an HCL twin of the same base
// name parses to the same job.
func TestFixtureTwins(t *testing.T) {
	twins := 0
	for _, name := range fixtureNames(t) {
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		hclName := strings.TrimSuffix(name, ".json") + ".hcl"
		if _, err := os.Stat(filepath.Join(fixturesDir, hclName)); err != nil {
			continue
		}
		twins++
		fromJSON, _, err := Parse(name, readFixture(t, name))
		must.NoError(t, err)
		fromHCL, _, err := Parse(hclName, readFixture(t, hclName))
		must.NoError(t, err)
		if diff := cmp.Diff(fromHCL, fromJSON); diff != "" {
			t.Fatalf("%s and %s differ (-hcl +json):\n%s", hclName, name, diff)
		}
	}
	must.Positive(t, twins)
}
