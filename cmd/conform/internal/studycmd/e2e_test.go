package studycmd

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoenig/test/must"
)

// TestStudyEndToEnd runs a tiny study for real: the test binary built
// from this module's source with go test -c, its worker, the report.
func TestStudyEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the study's test binary (about 10 s)")
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	must.NoError(t, err)
	root := strings.TrimSpace(string(out))
	report := filepath.Join(t.TempDir(), "sync.md")
	code, stdout, stderr := run(Config{}, "--grid", "1x3,2x2", "--seeds", "1", "--minutes", "0.5", "--parallel", "2",
		"--allocsim", root, "--out", report)
	must.EqOp(t, 0, code, must.Sprint(stderr))
	must.StrContains(t, stderr, "study sync: building the study's test binary from "+root)
	must.StrContains(t, stderr, "study sync: 4/4 ")
	must.StrContains(t, stdout, "holds: urgent ClientStatus changes")
	must.StrContains(t, read(t, report), "### 2 × 2")
	wellFormed(t, "latency.svg", read(t, filepath.Join(strings.TrimSuffix(report, ".md"), "latency.svg")))
}
