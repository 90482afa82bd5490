package main

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// twoFiles are the sources of two small files.
func twoFiles() []sourceFile {
	a := snippet("func f(a, b int) bool {\n\tg()\n\treturn a < b && !(a == 1)\n}\n")
	b := snippet("func h(t *T) {\n\tt.n += 1\n\tdefer g()\n\tgo g()\n}\n")
	return []sourceFile{{Name: "x/b.go", Src: []byte(b)}, {Name: "x/a.go", Src: []byte(a)}}
}

// TestEnumerationIsDeterministic: file-name order then position (then
// operator order) whatever order the files come in; IDs unique.
func TestEnumerationIsDeterministic(t *testing.T) {
	files := twoFiles()
	first, err := enumerate(files, mutateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(files)
	second, err := enumerate(files, mutateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Fatalf("enumeration depends on the files' order (-first +second):\n%s", diff)
	}
	seen := map[string]bool{}
	for i, m := range first {
		if seen[m.ID()] {
			t.Errorf("ID %s twice", m.ID())
		}
		seen[m.ID()] = true
		if i == 0 {
			continue
		}
		p := first[i-1]
		ordered := p.File < m.File || p.File == m.File && (p.Line < m.Line || p.Line == m.Line &&
			(p.Col < m.Col || p.Col == m.Col && operatorRank(p.Operator) < operatorRank(m.Operator)))
		if !ordered {
			t.Errorf("%s listed before %s", p.ID(), m.ID())
		}
	}
	if first[0].File != "x/a.go" {
		t.Errorf("first mutant %s, want one of x/a.go", first[0].ID())
	}
}

// TestRankIsPinned: a draw is the same on every machine and Go version.
func TestRankIsPinned(t *testing.T) {
	// SHA-256("1\x00impl/client/sync.go:42:7:cond-negate")[:8], big-endian.
	if got, want := rank(1, "impl/client/sync.go:42:7:cond-negate"), uint64(0x639d68e8326dd566); got != want {
		t.Errorf("rank = %#x, want %#x", got, want)
	}
}

func manyMutants(n int) []Mutant {
	ms := make([]Mutant, n)
	for i := range ms {
		ms[i] = Mutant{File: "f.go", Line: i + 1, Col: 1, Operator: opNegate}
	}
	return ms
}

// TestSampling: N drawn, the same for the same seed, another for
// another; in enumeration order; invalid ones skipped and recorded; a
// mutant keeps its place when others go.
func TestSampling(t *testing.T) {
	ms := manyMutants(50)
	a := selectMutants(ms, 5, 1, nil)
	b := selectMutants(ms, 5, 1, nil)
	c := selectMutants(ms, 5, 2, nil)
	if len(a.Judged) != 5 || !slices.Equal(a.Judged, b.Judged) {
		t.Fatalf("seed 1 drew %v then %v", a.Judged, b.Judged)
	}
	if slices.Equal(a.Judged, c.Judged) {
		t.Errorf("seeds 1 and 2 drew the same %v", a.Judged)
	}
	if !slices.IsSorted(a.Judged) {
		t.Errorf("not in enumeration order: %v", a.Judged)
	}
	if all := selectMutants(ms, 0, 1, nil); len(all.Judged) != 50 {
		t.Errorf("-sample 0 judged %d, want 50", len(all.Judged))
	}
	if all := selectMutants(ms, 80, 1, nil); len(all.Judged) != 50 {
		t.Errorf("-sample 80 of 50 judged %d, want 50", len(all.Judged))
	}

	// The first two drawn do not compile: the draw goes on to five that do.
	order := drawOrder(ms, 1)
	bad := map[string]bool{ms[order[0]].ID(): true, ms[order[1]].ID(): true}
	valid := func(m Mutant) error {
		if bad[m.ID()] {
			return errors.New("nope")
		}
		return nil
	}
	s := selectMutants(ms, 5, 1, valid)
	want := slices.Clone(order[2:7])
	slices.Sort(want)
	if !slices.Equal(s.Judged, want) || len(s.Invalid) != 2 || s.Invalid[order[0]] != "nope" {
		t.Errorf("with two invalid: judged %v (want %v), invalid %v", s.Judged, want, s.Invalid)
	}

	// Drop every other mutant not drawn: the draw of the rest is the same.
	var kept []Mutant
	drawn := map[string]bool{}
	for _, i := range a.Judged {
		drawn[ms[i].ID()] = true
	}
	for i, m := range ms {
		if drawn[m.ID()] || i%2 == 0 {
			kept = append(kept, m)
		}
	}
	k := selectMutants(kept, 5, 1, nil)
	var got []string
	for _, i := range k.Judged {
		got = append(got, kept[i].ID())
	}
	var wantIDs []string
	for _, i := range a.Judged {
		wantIDs = append(wantIDs, ms[i].ID())
	}
	if !slices.Equal(got, wantIDs) {
		t.Errorf("after removing others, drew %v, want %v", got, wantIDs)
	}
}

func ExampleMutant_ID() {
	m := Mutant{File: "impl/client/sync.go", Line: 42, Col: 7, Operator: opNegate, Old: "if a == b {", New: "if a != b {"}
	fmt.Println(m.ID())
	fmt.Println(m.Diff())
	// Output:
	// impl/client/sync.go:42:7:cond-negate
	// if a == b { → if a != b {
}
