package properties_test

import (
	"os"
	"os/exec"
	"testing"
)

// TestExternalRunnerModule runs the tests of examples/noderunner, a
// module of its own: a runner outside this module calls Run with only
// the contract packages imported by its runner package.
func TestExternalRunnerModule(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("go is not on PATH: %v", err)
	}
	cmd := exec.Command(goBin, "test", "-count=1", "./...")
	cmd.Dir = "../examples/noderunner"
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in examples/noderunner: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
