package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOverlayFile: the overlay maps the original's absolute path to the
// mutated copy in the work directory, which holds the mutated bytes.
func TestOverlayFile(t *testing.T) {
	dir := t.TempDir()
	orig := filepath.Join(t.TempDir(), "pkg", "sync.go")
	path, err := writeOverlay(dir, orig, []byte("package pkg\n"))
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "overlay.json") {
		t.Errorf("overlay at %s", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &ov); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	repl, ok := ov.Replace[orig]
	if len(ov.Replace) != 1 || !ok {
		t.Fatalf("Replace = %v, want one entry for %s", ov.Replace, orig)
	}
	if repl != filepath.Join(dir, "sync.go") || !filepath.IsAbs(repl) {
		t.Errorf("replacement %s", repl)
	}
	if got, _ := os.ReadFile(repl); string(got) != "package pkg\n" {
		t.Errorf("replacement holds %q", got)
	}
}

// TestOverlayBuildsTheMutant: go run -overlay runs the mutant and leaves
// the file on disk as it was.
func TestOverlayBuildsTheMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	mod := t.TempDir()
	src := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1 == 2)\n}\n"
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module m\n\ngo 1.22\n")
	write("main.go", src)
	ms, err := mutateFile("main.go", []byte(src), mutateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var m *Mutant
	for i := range ms {
		if ms[i].Operator == opNegate {
			m = &ms[i]
		}
	}
	if m == nil {
		t.Fatal("no cond-negate mutant")
	}
	ov, err := writeOverlay(t.TempDir(), filepath.Join(mod, "main.go"), m.Apply([]byte(src)))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "-overlay="+ov, ".")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run -overlay: %v\n%s", err, out)
	}
	if strings.TrimSpace(string(out)) != "true" {
		t.Errorf("the mutant printed %q, want true", out)
	}
	if got, _ := os.ReadFile(filepath.Join(mod, "main.go")); string(got) != src {
		t.Errorf("main.go was written:\n%s", got)
	}
}
