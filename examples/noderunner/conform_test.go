package noderunner_test

import (
	"os/exec"
	"strings"
	"testing"

	"example.com/noderunner"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/properties"
)

// TestConform is the one test a runner author adds: the suite, with the
// client-communication profile (a runner without tasks). The client half
// is the reference client, which builds its alloc runners with the
// factory it is given.
func TestConform(t *testing.T) {
	f := reference.WithAllocRunner("noderunner", noderunner.New)
	properties.Run(t, f, properties.WithProfile(properties.ProfileClientCommunication))
}

// TestImportsOnlyTheContract: the runner package imports, of allocsim,
// only the contract packages and model/.
func TestImportsOnlyTheContract(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, imp := range strings.Fields(string(out)) {
		if !strings.HasPrefix(imp, "github.com/allocsim/allocsim/") {
			continue
		}
		rest := strings.TrimPrefix(imp, "github.com/allocsim/allocsim/")
		if rest != "impl/interfaces" && rest != "plugins/drivers" && !strings.HasPrefix(rest, "model/") {
			t.Errorf("noderunner imports %s: a runner implements the contract (impl/interfaces, plugins/drivers, model/) only", imp)
		}
	}
}
