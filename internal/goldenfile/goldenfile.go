// Package goldenfile compares a test's output with a golden file under
// testdata/golden and rewrites it on request (the -update flag of the
// tests that use it), for renderings tested without the CLI (a report's
// Markdown). The CLI's own golden outputs are testscript scripts,
// cmd/conform/testdata/script (STYLE 16).
package goldenfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Dir returns the calling package's testdata/golden as an absolute path,
// so that tests which change directory still find it. Call it at package
// initialisation, before any test changes directory.
func Dir() string {
	dir, err := filepath.Abs(filepath.Join("testdata", "golden"))
	if err != nil {
		panic(err) // the working directory is gone: nothing to test
	}
	return dir
}

// Check compares got with dir/name; with update it first writes got
// there. regen is the command that rewrites the file, named when it is
// missing.
func Check(t testing.TB, dir, name, got string, update bool, regen string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (run %s)", err, regen)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Fatalf("%s differs (-want +got):\n%s", path, d)
	}
}
