package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// snippet wraps body in a package with the declarations the cases use.
func snippet(body string) string {
	return `package p

type T struct {
	n      int
	ok     bool
	logger logger
}

type logger struct{}

func (logger) Warn(string, ...any) {}

func g() int { return 0 }

` + body
}

// describe is a mutant as the table states it: line:col:operator and
// the mutated line.
func describe(m Mutant) string {
	return fmt.Sprintf("%d:%d:%s %s", m.Line, m.Col, m.Operator, m.New)
}

// bodyLine is the line of the body's first line in a snippet.
var bodyLine = strings.Count(snippet(""), "\n") + 1

// TestOperators: each operator on small functions, every mutant listed
// in order, each of which compiles and differs from its input on its own
// line only, as stated.
func TestOperators(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string // line:col:operator mutated-line; line relative to the body
	}{
		{"equal", "func f(a, b int) bool {\n\treturn a == b\n}\n",
			[]string{"1:11:cond-negate return a != b"}},
		{"not equal", "func f(a, b int) bool {\n\treturn a != b\n}\n",
			[]string{"1:11:cond-negate return a == b"}},
		{"less", "func f(a, b int) bool {\n\treturn a < b\n}\n",
			[]string{"1:11:cond-negate return a >= b", "1:11:cond-boundary return a <= b"}},
		{"less or equal", "func f(a, b int) bool {\n\treturn a <= b\n}\n",
			[]string{"1:11:cond-negate return a > b", "1:11:cond-boundary return a < b"}},
		{"greater", "func f(a, b int) bool {\n\treturn a > b\n}\n",
			[]string{"1:11:cond-negate return a <= b", "1:11:cond-boundary return a >= b"}},
		{"greater or equal", "func f(a, b int) bool {\n\treturn a >= b\n}\n",
			[]string{"1:11:cond-negate return a < b", "1:11:cond-boundary return a > b"}},
		{"not", "func f(t T) bool {\n\treturn !t.ok\n}\n",
			[]string{"1:9:not-drop return t.ok"}},
		{"and", "func f(a, b bool) bool {\n\treturn a && b\n}\n",
			[]string{"1:11:and-or return a || b"}},
		{"or", "func f(a, b bool) bool {\n\treturn a || b\n}\n",
			[]string{"1:11:and-or return a && b"}},
		{"add and multiply", "func f(a, b int) int {\n\treturn a + b*2\n}\n",
			[]string{"1:11:arith return a - b*2", "1:14:arith return a + b/2"}},
		{"subtract and divide", "func f(a, b int) int {\n\treturn a - b/3\n}\n",
			[]string{"1:11:arith return a + b/3", "1:14:arith return a - b*3"}},
		{"op-assign and inc", "func f(t *T) {\n\tt.n += 2\n\tt.n++\n}\n",
			[]string{"1:2:assign-drop ", "1:6:arith t.n -= 2", "2:2:assign-drop ", "2:5:arith t.n--"}},
		{"constants", "func f() int {\n\tx := 1\n\treturn x + 0 + 2\n}\n",
			[]string{"1:7:const-flip x := 0", "2:11:arith return x - 0 + 2", "2:13:const-flip return x + 1 + 2", "2:15:arith return x + 0 - 2"}},
		{"call statement", "func f() {\n\tg()\n}\n",
			[]string{"1:2:call-drop "}},
		{"assignment", "func f(t *T) {\n\tt.n = 3\n\t_ = t\n\t_ = g()\n}\n",
			[]string{"1:2:assign-drop ", "3:2:assign-drop "}},
		{"go and defer", "func f() {\n\tgo g()\n\tdefer g()\n}\n",
			[]string{"1:2:go-drop g()", "2:2:defer-drop g()"}},
		{"statement in a case", "func f(a int) {\n\tswitch a {\n\tcase 2:\n\t\tg()\n\t}\n}\n",
			[]string{"3:3:call-drop "}},
		{"logger calls are left alone", "func f(t *T, err error) {\n\tif err != nil {\n\t\tt.logger.Warn(\"x\", \"n\", t.n+1)\n\t}\n\tt.logger.Warn(\"y\")\n}\n",
			nil},
		{"an if with more than logging is mutated", "func f(t *T, err error) {\n\tif err != nil {\n\t\tt.logger.Warn(\"x\")\n\t\tg()\n\t}\n}\n",
			[]string{"1:9:cond-negate if err == nil {", "3:3:call-drop "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := snippet(tt.body)
			ms, err := mutateFile("p/p.go", []byte(src), mutateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range ms {
				if m.Line < bodyLine {
					continue // the snippet's own declarations
				}
				d := m
				d.Line -= bodyLine
				got = append(got, describe(d))
				checkMutant(t, src, m)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mutants (-want +got):\n%s", diff)
			}
		})
	}
}

// checkMutant: m's output differs from src on m's line only, that line
// reads m.New, and the output type-checks.
func checkMutant(t *testing.T, src string, m Mutant) {
	t.Helper()
	out := string(m.Apply([]byte(src)))
	a, b := strings.Split(src, "\n"), strings.Split(out, "\n")
	if len(a) != len(b) {
		t.Errorf("%s: %d lines, want %d", m.ID(), len(b), len(a))
		return
	}
	for i := range a {
		switch {
		case i+1 == m.Line:
			if collapse(b[i]) != m.New {
				t.Errorf("%s: line %d = %q, want %q", m.ID(), i+1, collapse(b[i]), m.New)
			}
			if a[i] == b[i] {
				t.Errorf("%s: line %d unchanged", m.ID(), i+1)
			}
		case a[i] != b[i]:
			t.Errorf("%s: line %d changed too: %q → %q", m.ID(), i+1, a[i], b[i])
		}
	}
	if err := typecheckSnippet(out); err != nil {
		t.Errorf("%s does not compile: %v\n%s", m.ID(), err, out)
	}
}

// snippetChecker is a checker of one import-free package p holding src.
func snippetChecker(src string) *checker {
	return newChecker([]target{{ImportPath: "p", Dir: "p", Files: []sourceFile{{Name: "p/p.go", Path: "p/p.go", Src: []byte(src)}}}}, nil)
}

// typecheckSnippet type-checks one import-free file.
func typecheckSnippet(src string) error {
	return snippetChecker(src).targets["p/p.go"].original
}

// TestMultiLineStatementRemoval: a statement over several lines goes
// whole; its diff collapses it to one line.
func TestMultiLineStatementRemoval(t *testing.T) {
	src := snippet("func f(t *T) {\n\tt.n = g() +\n\t\tg()\n}\n")
	ms, err := mutateFile("p/p.go", []byte(src), mutateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var drop *Mutant
	for i := range ms {
		if ms[i].Operator == opAssign {
			drop = &ms[i]
		}
	}
	if drop == nil {
		t.Fatal("no assign-drop mutant")
	}
	if drop.Old != "t.n = g() + g()" || drop.New != "" || drop.Diff() != "t.n = g() + g() → (nothing)" {
		t.Errorf("diff = %q", drop.Diff())
	}
	out := string(drop.Apply([]byte(src)))
	if !strings.Contains(out, "func f(t *T) {\n\t\n}\n") {
		t.Errorf("output:\n%s", out)
	}
	if err := typecheckSnippet(out); err != nil {
		t.Error(err)
	}
}

// TestInvalidMutantsAreRejected: the checker rejects what the compiler
// would (a string minus, a variable left unused), and accepts the rest.
func TestInvalidMutantsAreRejected(t *testing.T) {
	src := snippet("func f(s string) string {\n\tv := g()\n\tv = v + 1\n\treturn s + \"x\"\n}\n")
	c := snippetChecker(src)
	if err := c.targets["p/p.go"].original; err != nil {
		t.Fatalf("the input does not compile: %v", err)
	}
	ms, err := mutateFile("p/p.go", []byte(src), mutateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	verdict := map[string]bool{}
	for _, m := range ms {
		if m.Line >= bodyLine {
			verdict[describe(Mutant{Line: m.Line - bodyLine, Col: m.Col, Operator: m.Operator, New: m.New})] = c.Check(m.File, m.Apply([]byte(src))) == nil
		}
	}
	want := map[string]bool{
		"2:2:assign-drop ":            false, // v = v + 1 was v's only use: declared and not used
		"2:8:arith v = v - 1":         true,
		"2:10:const-flip v = v + 0":   true,
		"3:11:arith return s - \"x\"": false, // no minus on strings
	}
	if diff := cmp.Diff(want, verdict); diff != "" {
		t.Errorf("compiles (-want +got):\n%s", diff)
	}
}
