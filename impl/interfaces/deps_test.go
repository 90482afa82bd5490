package interfaces_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/allocsim/allocsim/"

// contractPackages are the packages a runner written elsewhere imports to
// implement the contract (see the package documentation).
var contractPackages = []string{
	module + "impl/interfaces",
	module + "plugins/drivers",
}

// allowedImport reports whether a contract package may import path
// directly: the standard library, model/, the other contract packages,
// the clock interface and go-metrics.
func allowedImport(path string) bool {
	switch {
	case !strings.Contains(strings.SplitN(path, "/", 2)[0], "."):
		return true // standard library
	case strings.HasPrefix(path, module+"model/"):
		return true
	case path == "github.com/benbjohnson/clock", path == "github.com/hashicorp/go-metrics":
		return true
	}
	for _, p := range contractPackages {
		if path == p {
			return true
		}
	}
	return false
}

// goList runs go list in the module with args and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	goBin, err := exec.LookPath("go") // go test puts GOROOT/bin first in PATH
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	cmd := exec.Command(goBin, append([]string{"list"}, args...)...)
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, ee.Stderr)
		}
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	return strings.Fields(string(out))
}

// TestContractPackagesAreLeaves: the contract pulls in nothing of the
// reference runner (no package under impl/ but the contract) and no
// bbolt, and imports directly only what its documentation promises.
func TestContractPackagesAreLeaves(t *testing.T) {
	for _, pkg := range contractPackages {
		for _, dep := range goList(t, "-deps", pkg) {
			if strings.HasPrefix(dep, module+"impl/") && dep != module+"impl/interfaces" {
				t.Errorf("go list -deps %s: %s, want no package under impl/ but the contract", pkg, dep)
			}
			if strings.HasPrefix(dep, "go.etcd.io/bbolt") {
				t.Errorf("go list -deps %s: %s, want no bbolt", pkg, dep)
			}
		}
		for _, imp := range goList(t, "-f", `{{join .Imports "\n"}}`, pkg) {
			if !allowedImport(imp) {
				t.Errorf("%s imports %s, want only the standard library, model/, the contract packages, benbjohnson/clock and go-metrics", pkg, imp)
			}
		}
	}
}

// TestMinimalRunnerNeedsOnlyTheContract: impl/minimal, the worked example
// for runner authors, is written as a runner in another module would be:
// it imports the contract packages and model/ only.
func TestMinimalRunnerNeedsOnlyTheContract(t *testing.T) {
	pkg := module + "impl/minimal"
	for _, imp := range goList(t, "-f", `{{join .Imports "\n"}}`, pkg) {
		if !allowedImport(imp) {
			t.Errorf("%s imports %s, want only contract packages and model/", pkg, imp)
		}
	}
}
