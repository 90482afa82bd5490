package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// forbidden maps an import path to its forbidden selectors; allowed maps an
// import path to the only selectors that may be used (constructors).
var (
	forbidden = map[string]map[string]bool{
		"time":                            set("Now", "Since", "Until", "Sleep", "After", "AfterFunc", "NewTimer", "NewTicker", "Tick", "Local"),
		"os":                              set("Getenv", "LookupEnv", "Environ", "Hostname"),
		"github.com/hashicorp/go-metrics": set("MeasureSince", "MeasureSinceWithLabels"),
		"github.com/armon/go-metrics":     set("MeasureSince", "MeasureSinceWithLabels"),
		clockPath:                         set("New"), // the real clock; NewMock is fine
	}
	allowed = map[string]map[string]bool{
		"math/rand":    set("New", "NewSource", "NewZipf", "Rand", "Source", "Source64", "Zipf"),
		"math/rand/v2": set("New", "NewPCG", "NewChaCha8", "NewZipf", "Rand", "Source", "PCG", "ChaCha8", "Zipf"),
	}
)

// clockPath is github.com/benbjohnson/clock, whose New is the real clock.
const clockPath = "github.com/benbjohnson/clock"

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Violation is one forbidden use.
type Violation struct {
	Pos token.Position
	Msg string
}

func (v Violation) String() string { return fmt.Sprintf("%s: %s", v.Pos, v.Msg) }

// CheckFile reports the violations in one parsed file.
func CheckFile(fset *token.FileSet, f *ast.File) []Violation {
	names := map[string]string{} // local name -> import path
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if _, ok := forbidden[path]; !ok {
			if _, ok := allowed[path]; !ok {
				continue
			}
		}
		name := filepath.Base(path)
		if path == "math/rand/v2" {
			name = "rand"
		}
		if path == "github.com/hashicorp/go-metrics" || path == "github.com/armon/go-metrics" {
			name = "metrics"
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "_" || name == "." {
			continue
		}
		names[name] = path
	}
	var out []Violation
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		// Method-style MeasureSince on a *metrics.Metrics value.
		if strings.HasPrefix(sel.Sel.Name, "MeasureSince") {
			if id, ok := sel.X.(*ast.Ident); !ok || id.Obj != nil || names[id.Name] == "" {
				if importsMetrics(names) {
					out = append(out, Violation{fset.Position(sel.Pos()), "go-metrics " + sel.Sel.Name + " reads the wall clock (TELEM-4): use AddSampleWithLabels with the injected clock"})
				}
				return true
			}
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || id.Obj != nil {
			return true
		}
		path, ok := names[id.Name]
		if !ok {
			return true
		}
		if f := forbidden[path]; f != nil && f[sel.Sel.Name] {
			hint := "the injected dependency"
			if path == clockPath {
				hint = "the injected clock.Clock (only the production adapter under cmd/ builds the real one)"
			}
			out = append(out, Violation{fset.Position(sel.Pos()), fmt.Sprintf("%s.%s is forbidden here (DET-1): use %s", path, sel.Sel.Name, hint)})
		}
		if a := allowed[path]; a != nil && !a[sel.Sel.Name] {
			out = append(out, Violation{fset.Position(sel.Pos()), fmt.Sprintf("%s.%s uses the global source (DET-1): use the injected *rand.Rand", path, sel.Sel.Name)})
		}
		return true
	})
	return out
}

func importsMetrics(names map[string]string) bool {
	for _, p := range names {
		if strings.HasSuffix(p, "go-metrics") {
			return true
		}
	}
	return false
}

// CheckDirs walks dirs and checks every non-test .go file.
func CheckDirs(dirs []string) ([]Violation, error) {
	fset := token.NewFileSet()
	var out []Violation
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if name := d.Name(); path != dir && (name == "testdata" || strings.HasPrefix(name, ".")) {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return fmt.Errorf("parse %s: %w", path, err)
			}
			out = append(out, CheckFile(fset, f)...)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("detlint: walk %s: %w", dir, err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out, nil
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" {
		fmt.Fprintln(os.Stderr, "usage: detlint DIR...\n\nReports real-clock, global-rand, environment and wall-clock metric use (SPEC DET-1) in non-test Go files under each DIR.")
		os.Exit(2)
	}
	vs, err := CheckDirs(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for _, v := range vs {
		fmt.Println(v)
	}
	if len(vs) > 0 {
		fmt.Fprintf(os.Stderr, "detlint: %d violation(s)\n", len(vs))
		os.Exit(1)
	}
}
