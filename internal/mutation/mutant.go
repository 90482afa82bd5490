package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
)

// The operators, in the order a position's mutants are listed.
const (
	opNegate   = "cond-negate"   // == ↔ !=, < → >=, <= → >, > → <=, >= → <
	opBoundary = "cond-boundary" // < ↔ <=, > ↔ >=
	opNotDrop  = "not-drop"      // !x → x
	opAndOr    = "and-or"        // && ↔ ||
	opArith    = "arith"         // + ↔ -, * ↔ /, += ↔ -=, *= ↔ /=, ++ ↔ --
	opConst    = "const-flip"    // integer literal 0 → 1, 1 → 0
	opCallDrop = "call-drop"     // a call statement removed
	opAssign   = "assign-drop"   // an assignment (=, op=, ++, --) removed
	opGoDrop   = "go-drop"       // go f() → f()
	opDefer    = "defer-drop"    // defer f() → f()
)

// operators lists every operator in their fixed order.
var operators = []string{opNegate, opBoundary, opNotDrop, opAndOr, opArith, opConst, opCallDrop, opAssign, opGoDrop, opDefer}

func operatorRank(op string) int {
	for i, o := range operators {
		if o == op {
			return i
		}
	}
	return len(operators)
}

var (
	negated = map[token.Token]token.Token{
		token.EQL: token.NEQ, token.NEQ: token.EQL,
		token.LSS: token.GEQ, token.GEQ: token.LSS,
		token.GTR: token.LEQ, token.LEQ: token.GTR,
	}
	boundary = map[token.Token]token.Token{
		token.LSS: token.LEQ, token.LEQ: token.LSS,
		token.GTR: token.GEQ, token.GEQ: token.GTR,
	}
	arith = map[token.Token]token.Token{
		token.ADD: token.SUB, token.SUB: token.ADD,
		token.MUL: token.QUO, token.QUO: token.MUL,
		token.ADD_ASSIGN: token.SUB_ASSIGN, token.SUB_ASSIGN: token.ADD_ASSIGN,
		token.MUL_ASSIGN: token.QUO_ASSIGN, token.QUO_ASSIGN: token.MUL_ASSIGN,
		token.INC: token.DEC, token.DEC: token.INC,
	}
	andOr = map[token.Token]token.Token{token.LAND: token.LOR, token.LOR: token.LAND}
)

// logLevels are the methods of an hclog.Logger whose calls are not
// mutated (see doc.go).
var logLevels = map[string]bool{"Trace": true, "Debug": true, "Info": true, "Warn": true, "Error": true}

// Mutant is one change of one file: the bytes Start..End of the original
// replaced by Repl.
type Mutant struct {
	File     string // module-relative, slash-separated
	Line     int    // of the mutated token (1-based)
	Col      int    // byte column of the mutated token (1-based)
	Operator string
	Start    int // byte offset in the original file
	End      int
	Repl     string
	Old, New string // the touched lines before and after, whitespace collapsed
	Func     string // the enclosing function ("Recv.Name", "Name"), or "" at file level
	Nth      int    // how many mutants with the same Func and diff come before it in the file
}

// ID names the mutant: file:line:col:operator.
func (m Mutant) ID() string { return fmt.Sprintf("%s:%d:%d:%s", m.File, m.Line, m.Col, m.Operator) }

// Pin fingerprints the mutation itself, for the annotations
// (parseAnnotations): 8 hex digits of the SHA-256 of its enclosing
// function's name, its diff and Nth. Unlike the ID it does not change
// when the code around moves, and it does change when the code mutated
// does.
func (m Mutant) Pin() string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\n%s\n%d", m.Func, m.Diff(), m.Nth))
	return hex.EncodeToString(sum[:4])
}

// Diff is the one-line diff: the touched lines before → after.
func (m Mutant) Diff() string {
	n := m.New
	if n == "" {
		n = "(nothing)"
	}
	return m.Old + " → " + n
}

// Apply returns src with the mutation made; src must be the file the
// mutant was generated from.
func (m Mutant) Apply(src []byte) []byte {
	out := make([]byte, 0, len(src)-(m.End-m.Start)+len(m.Repl))
	out = append(out, src[:m.Start]...)
	out = append(out, m.Repl...)
	return append(out, src[m.End:]...)
}

// enclosingFunc names the function declaration of f that holds pos:
// "Recv.Name" for a method (Recv without its star and type arguments),
// "Name" for a function, "" outside any.
func enclosingFunc(f *ast.File, pos token.Pos) string {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || pos < fd.Pos() || pos >= fd.End() {
			continue
		}
		if fd.Recv == nil || len(fd.Recv.List) == 0 {
			return fd.Name.Name
		}
		t := fd.Recv.List[0].Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		switch x := t.(type) {
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		}
		if id, ok := t.(*ast.Ident); ok {
			return id.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
	return ""
}

// options of the enumeration.
type mutateOptions struct {
	logs bool // mutate logger calls and their arguments too
}

// mutateFile returns every mutant of one file, in position order (then
// operator order). name is the module-relative path the IDs carry.
func mutateFile(name string, src []byte, opt mutateOptions) ([]Mutant, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	tf := fset.File(f.Pos())
	var out []Mutant
	add := func(op string, at token.Pos, start, end token.Pos, repl string) {
		m := Mutant{File: name, Operator: op, Start: tf.Offset(start), End: tf.Offset(end), Repl: repl, Func: enclosingFunc(f, start)}
		p := tf.Position(at)
		m.Line, m.Col = p.Line, p.Column
		m.Old, m.New = diffLines(src, m)
		out = append(out, m)
	}
	swap := func(op string, pos token.Pos, tok token.Token, table map[token.Token]token.Token) {
		if to, ok := table[tok]; ok {
			add(op, pos, pos, pos+token.Pos(len(tok.String())), to.String())
		}
	}
	dropStmts := func(list []ast.Stmt) {
		for _, s := range list {
			switch s := s.(type) {
			case *ast.ExprStmt:
				if _, ok := ast.Unparen(s.X).(*ast.CallExpr); ok && (opt.logs || !isLogCall(s.X)) {
					add(opCallDrop, s.Pos(), s.Pos(), s.End(), "")
				}
			case *ast.AssignStmt:
				if s.Tok != token.DEFINE && !blankOnly(s) {
					add(opAssign, s.Pos(), s.Pos(), s.End(), "")
				}
			case *ast.IncDecStmt:
				add(opAssign, s.Pos(), s.Pos(), s.End(), "")
			}
		}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ExprStmt:
			if !opt.logs && isLogCall(n.X) {
				return false
			}
		case *ast.IfStmt:
			if !opt.logs && n.Else == nil && onlyLogs(n.Body) {
				if n.Init != nil {
					ast.Inspect(n.Init, visit)
				}
				return false
			}
		case *ast.BinaryExpr:
			swap(opNegate, n.OpPos, n.Op, negated)
			swap(opBoundary, n.OpPos, n.Op, boundary)
			swap(opAndOr, n.OpPos, n.Op, andOr)
			swap(opArith, n.OpPos, n.Op, arith)
		case *ast.UnaryExpr:
			if n.Op == token.NOT {
				add(opNotDrop, n.OpPos, n.OpPos, n.OpPos+1, "")
			}
		case *ast.AssignStmt:
			swap(opArith, n.TokPos, n.Tok, arith)
		case *ast.IncDecStmt:
			swap(opArith, n.TokPos, n.Tok, arith)
		case *ast.BasicLit:
			if n.Kind == token.INT && (n.Value == "0" || n.Value == "1") {
				add(opConst, n.ValuePos, n.ValuePos, n.End(), map[string]string{"0": "1", "1": "0"}[n.Value])
			}
		case *ast.GoStmt:
			add(opGoDrop, n.Go, n.Go, n.Call.Pos(), "")
		case *ast.DeferStmt:
			add(opDefer, n.Defer, n.Defer, n.Call.Pos(), "")
		case *ast.BlockStmt:
			dropStmts(n.List)
		case *ast.CaseClause:
			dropStmts(n.Body)
		case *ast.CommClause:
			dropStmts(n.Body)
		}
		return true
	}
	ast.Inspect(f, visit)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return operatorRank(a.Operator) < operatorRank(b.Operator)
	})
	seen := map[string]int{}
	for i := range out {
		k := out[i].Func + "\n" + out[i].Diff()
		out[i].Nth = seen[k]
		seen[k]++
	}
	return out, nil
}

// blankOnly reports an assignment to blanks only whose right side calls
// nothing and receives nothing (_ = x: a use, not an effect).
func blankOnly(s *ast.AssignStmt) bool {
	for _, l := range s.Lhs {
		if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
			return false
		}
	}
	effect := false
	for _, r := range s.Rhs {
		ast.Inspect(r, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				effect = true
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					effect = true
				}
			}
			return !effect
		})
	}
	return !effect
}

// isLogCall reports a call x.logger.Warn(...) (or log.Warn, logger.Warn):
// a level method called on something named logger or log.
func isLogCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !logLevels[sel.Sel.Name] {
		return false
	}
	var recv string
	switch x := sel.X.(type) {
	case *ast.Ident:
		recv = x.Name
	case *ast.SelectorExpr:
		recv = x.Sel.Name
	}
	return recv == "logger" || recv == "log"
}

// onlyLogs reports a block of logger calls and nothing else.
func onlyLogs(b *ast.BlockStmt) bool {
	for _, s := range b.List {
		if e, ok := s.(*ast.ExprStmt); !ok || !isLogCall(e.X) {
			return false
		}
	}
	return len(b.List) > 0
}

// diffLines returns the lines m touches, before and after, each collapsed
// to one line.
func diffLines(src []byte, m Mutant) (before, after string) {
	ls := m.Start
	for ls > 0 && src[ls-1] != '\n' {
		ls--
	}
	le := m.End
	for le < len(src) && src[le] != '\n' {
		le++
	}
	before = collapse(string(src[ls:le]))
	after = collapse(string(src[ls:m.Start]) + m.Repl + string(src[m.End:le]))
	return before, after
}

// maxDiffSide bounds each side of a diff, in runes.
const maxDiffSide = 160

func collapse(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxDiffSide {
		s = string(r[:maxDiffSide-1]) + "…"
	}
	return s
}

// sourceFile is one file to mutate: its module-relative name, absolute
// path and content, read once.
type sourceFile struct {
	Name string
	Path string
	Src  []byte
}

// enumerate returns every mutant of files, in file-name order then
// position. IDs are unique: a second mutant of the same ID (none of the
// operators makes one today) gets a #n suffix on its operator.
func enumerate(files []sourceFile, opt mutateOptions) ([]Mutant, error) {
	sorted := append([]sourceFile(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	var all []Mutant
	seen := map[string]int{}
	for _, f := range sorted {
		ms, err := mutateFile(f.Name, f.Src, opt)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			id := m.ID()
			if n := seen[id]; n > 0 {
				m.Operator = fmt.Sprintf("%s#%d", m.Operator, n+1)
			}
			seen[id]++
			all = append(all, m)
		}
	}
	return all, nil
}
