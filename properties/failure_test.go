package properties_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/properties"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestFailureTextIsGolden pins how a failure prints (STYLE.md rule 9):
// the property, the violation with the task's local time, the seed, the
// shrunk scenario, the last trace records and the replay command. The
// text is a function of the seed, so it is the same on every machine.
func TestFailureTextIsGolden(t *testing.T) {
	if raceEnabled {
		t.Skip("the golden run is checked without the race detector")
	}
	m, _ := mutants.Lookup("status-running-over-failed")
	id := "AR-8/client-status-every-instant"
	rep := properties.Check(m.Factory, properties.WithProperty(id))
	res, ok := rep.Result(id)
	if rep.Err != nil || !ok || !res.Failed {
		t.Fatalf("no failure: %v\n%s", rep.Err, rep)
	}
	path := filepath.Join("testdata", "failure_status_running_over_failed.golden")
	if *update {
		if err := os.WriteFile(path, []byte(res.Message), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if res.Message != string(want) {
		t.Errorf("failure text differs from %s (run with -update if the change is meant):\n--- got\n%s\n--- want\n%s", path, res.Message, want)
	}
}
