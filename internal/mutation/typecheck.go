package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// listedPackage is what go list -json says of a package.
type listedPackage struct {
	ImportPath string
	Dir        string
	Export     string
	GoFiles    []string
	CgoFiles   []string
	DepOnly    bool
	Module     *struct{ GoVersion string }
	Error      *struct{ Err string }
}

// target is one package to mutate.
type target struct {
	ImportPath string
	Dir        string
	GoVersion  string
	Files      []sourceFile
}

// loadTargets lists pkgs (go list patterns, run in root) with their
// dependencies' export data, reads the targets' non-test Go files (as the
// build sees them: build constraints applied) and returns the targets and
// the export data files by import path. The export data comes from the
// build cache (go list -export builds what it lacks).
func loadTargets(goCmd, root string, pkgs []string) ([]target, map[string]string, error) {
	args := append([]string{"list", "-e", "-export", "-deps", "-json=ImportPath,Dir,Export,GoFiles,CgoFiles,DepOnly,Module,Error"}, pkgs...)
	cmd := exec.Command(goCmd, args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("go list: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	exports := map[string]string{}
	var targets []target
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, fmt.Errorf("go list output: %v", err)
		}
		if p.Export != "" {
			exports[p.ImportPath] = p.Export
		}
		if p.DepOnly {
			continue
		}
		if p.Error != nil {
			return nil, nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		if len(p.CgoFiles) > 0 {
			return nil, nil, fmt.Errorf("package %s uses cgo: not supported", p.ImportPath)
		}
		t := target{ImportPath: p.ImportPath, Dir: p.Dir}
		if p.Module != nil {
			t.GoVersion = p.Module.GoVersion
		}
		for _, name := range p.GoFiles {
			path := filepath.Join(p.Dir, name)
			src, err := os.ReadFile(path)
			if err != nil {
				return nil, nil, err
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return nil, nil, err
			}
			t.Files = append(t.Files, sourceFile{Name: filepath.ToSlash(rel), Path: path, Src: src})
		}
		targets = append(targets, t)
	}
	sort.Slice(targets, func(i, j int) bool { return targets[i].ImportPath < targets[j].ImportPath })
	return targets, exports, nil
}

// checker type-checks a target package with one file replaced: the
// compiler's front end, in process, against the dependencies' export
// data, so that a mutant that cannot compile is known in milliseconds
// instead of a build.
type checker struct {
	fset    *token.FileSet
	imp     types.Importer
	targets map[string]*checkedTarget // by module-relative file name
}

type checkedTarget struct {
	target
	parsed   map[string]*ast.File // the unmutated files, parsed once
	original error                // the unmutated package's first error, if any
}

func newChecker(targets []target, exports map[string]string) *checker {
	fset := token.NewFileSet()
	c := &checker{
		fset: fset,
		imp: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
			f, ok := exports[path]
			if !ok {
				return nil, fmt.Errorf("no export data for %q", path)
			}
			return os.Open(f)
		}),
		targets: map[string]*checkedTarget{},
	}
	for _, t := range targets {
		ct := &checkedTarget{target: t, parsed: map[string]*ast.File{}}
		for _, f := range t.Files {
			af, err := parser.ParseFile(fset, f.Path, f.Src, parser.SkipObjectResolution)
			if err != nil && ct.original == nil {
				ct.original = err
			}
			ct.parsed[f.Name] = af
			c.targets[f.Name] = ct
		}
		if ct.original == nil {
			ct.original = c.check(ct, "", nil)
		}
	}
	return c
}

// errUnchecked says a mutant's package cannot be type-checked as it
// stands (the unmutated package has errors): the build decides.
var errUnchecked = errors.New("package not type-checked")

// Check type-checks the package of file name with its content replaced
// by src: nil if it compiles, the first error if not, errUnchecked if the
// unmutated package does not type-check either.
func (c *checker) Check(name string, src []byte) error {
	ct, ok := c.targets[name]
	if !ok {
		return fmt.Errorf("%s: not a file of the mutated packages", name)
	}
	if ct.original != nil {
		return errUnchecked
	}
	return c.check(ct, name, src)
}

func (c *checker) check(ct *checkedTarget, name string, src []byte) error {
	files := make([]*ast.File, 0, len(ct.Files))
	for _, f := range ct.Files {
		af := ct.parsed[f.Name]
		if f.Name == name {
			var err error
			if af, err = parser.ParseFile(c.fset, f.Path, src, parser.SkipObjectResolution); err != nil {
				return err
			}
		}
		files = append(files, af)
	}
	var first error
	conf := types.Config{
		Importer:  c.imp,
		GoVersion: goVersion(ct.GoVersion),
		Error: func(err error) {
			if first == nil {
				first = err
			}
		},
	}
	conf.Check(ct.ImportPath, c.fset, files, nil) // first holds the first error
	return first
}

// goVersion turns go.mod's "1.26.0" into go/types' "go1.26.0".
func goVersion(v string) string {
	if v == "" {
		return ""
	}
	return "go" + v
}
