package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestTheRunnerEnumerates: the reference runner's packages, as they are
// now, give mutants with unique IDs, each a change of its file that reads
// as its diff says; the type check accepts the unmutated packages; the
// enumeration is the same twice.
func TestTheRunnerEnumerates(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list -export over the runner")
	}
	root, err := moduleRoot("go")
	if err != nil {
		t.Fatal(err)
	}
	targets, exports, err := loadTargets("go", root, strings.Split(defaultPackages, ","))
	if err != nil {
		t.Fatal(err)
	}
	var files []sourceFile
	for _, tg := range targets {
		for _, f := range tg.Files {
			if strings.HasSuffix(f.Name, "_test.go") || !strings.HasPrefix(f.Name, "impl/") || filepath.IsAbs(f.Name) {
				t.Errorf("file %s: want the non-test files of impl/..., module-relative", f.Name)
			}
		}
		files = append(files, tg.Files...)
	}
	ms, err := enumerate(files, mutateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := enumerate(files, mutateOptions{})
	if len(ms) < 300 || len(again) != len(ms) {
		t.Fatalf("%d mutants, then %d: want the same, at least 300", len(ms), len(again))
	}
	src := map[string][]byte{}
	for _, f := range files {
		src[f.Name] = f.Src
	}
	seen := map[string]bool{}
	for i, m := range ms {
		if seen[m.ID()] || m.ID() != again[i].ID() {
			t.Fatalf("mutant %d: %s (again: %s)", i, m.ID(), again[i].ID())
		}
		seen[m.ID()] = true
		if out := m.Apply(src[m.File]); bytes.Equal(out, src[m.File]) || m.Old == m.New {
			t.Errorf("%s changes nothing: %s", m.ID(), m.Diff())
		}
	}
	c := newChecker(targets, exports)
	for _, tg := range targets {
		if ct := c.targets[tg.Files[0].Name]; ct.original != nil {
			t.Errorf("%s does not type-check: %v", tg.ImportPath, ct.original)
		}
	}
	// Most mutants compile; the checker rejects some.
	invalid := 0
	for _, m := range ms {
		if err := c.Check(m.File, m.Apply(src[m.File])); err != nil && !errors.Is(err, errUnchecked) {
			invalid++
		}
	}
	if invalid == 0 || invalid > len(ms)/4 {
		t.Errorf("%d of %d mutants do not type-check", invalid, len(ms))
	}
}
