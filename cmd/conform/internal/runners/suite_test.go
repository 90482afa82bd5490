package runners

import (
	"flag"
	"testing"

	"github.com/allocsim/allocsim/properties"
)

// Flags of TestSuite, set by conform run.
var (
	flagRunner  = flag.String("conform.runner", "", "the built-in runner TestSuite checks (conform runners lists them)")
	flagProfile = flag.String("conform.profile", "", "the suite profile (default: the runner's)")
)

// TestSuite is the test conform run drives for a built-in runner: the
// suite (properties.Run) against the runner -conform.runner names. Go
// test's -run selects properties, the suite's -allocsim.* flags set
// checks, seed, budget and artifacts.
func TestSuite(t *testing.T) {
	if *flagRunner == "" {
		t.Skip("conform run drives this test: go test ./cmd/conform/internal/runners -run '^TestSuite$' -conform.runner=NAME")
	}
	r, err := Lookup(*flagRunner)
	if err != nil {
		t.Fatal(err)
	}
	profile := r.Profile
	if *flagProfile != "" {
		profile = *flagProfile
	}
	properties.Run(t, r.Factory, properties.WithProfile(profile),
		properties.WithPackage(SuitePackage+" -conform.runner="+r.Name+profileFlag(*flagProfile)))
}

func profileFlag(p string) string {
	if p == "" {
		return ""
	}
	return " -conform.profile=" + p
}
