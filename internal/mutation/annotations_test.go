package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseAnnotations(t *testing.T) {
	in := `# comment

impl/client/sync.go:42:7:cond-negate@0a1b2c3d   the loop exits on ctx either way: both branches return
impl/hookres/hookres.go:9:2:call-drop	a copy nobody reads
`
	got, pins, err := parseAnnotations(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := Annotations{
		"impl/client/sync.go:42:7:cond-negate":  "the loop exits on ctx either way: both branches return",
		"impl/hookres/hookres.go:9:2:call-drop": "a copy nobody reads",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"impl/client/sync.go:42:7:cond-negate": "0a1b2c3d"}, pins); diff != "" {
		t.Errorf("pins (-want +got):\n%s", diff)
	}
	for _, bad := range []struct{ in, want string }{
		{"impl/client/sync.go:42:7:cond-negate\n", "has no argument"},
		{"impl/client/sync.go:42:7:cond-negate x\nimpl/client/sync.go:42:7:cond-negate y\n", "twice"},
		{"impl/client/sync.go:42:7:cond-negate@0a x\nimpl/client/sync.go:42:7:cond-negate@0b y\n", "twice"},
		{"impl/client/sync.go:42:7:cond-negate@ x\n", "empty pin"},
		{"sync.go:42 because\n", "not a mutant ID"},
	} {
		if _, _, err := parseAnnotations(strings.NewReader(bad.in)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: err = %v, want %q", bad.in, err, bad.want)
		}
	}
}

// TestTheAnnotationsFileParses: internal/mutation/equivalent.txt and
// gaps.txt themselves, every entry pinned.
func TestTheAnnotationsFileParses(t *testing.T) {
	for _, name := range []string{"equivalent.txt", "gaps.txt"} {
		data, err := readFile(name)
		if err != nil {
			t.Fatal(err)
		}
		a, pins, err := parseAnnotations(strings.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for id := range a {
			if pins[id] == "" {
				t.Errorf("%s: %s has no pin (ID@pin, as go run ./internal/mutation -list prints it)", name, id)
			}
		}
	}
}

// TestPinnedTo: an annotation applies only to the mutant it was argued
// for. When the source moves, the same ID may name another mutant: its
// pin then differs and the argument is not applied, as one without a
// pin; an ID that names no mutant is left to the stale list.
func TestPinnedTo(t *testing.T) {
	a := Annotations{"f.go:1:1:call-drop": "same", "f.go:2:1:call-drop": "moved", "f.go:3:1:call-drop": "unpinned", "f.go:9:1:call-drop": "gone"}
	pins := map[string]string{"f.go:1:1:call-drop": "aaaa", "f.go:2:1:call-drop": "bbbb", "f.go:9:1:call-drop": "cccc"}
	current := map[string]string{"f.go:1:1:call-drop": "aaaa", "f.go:2:1:call-drop": "dddd", "f.go:3:1:call-drop": "eeee"}
	kept, revisit := a.pinnedTo(pins, current, "equivalent.txt")
	if diff := cmp.Diff(Annotations{"f.go:1:1:call-drop": "same", "f.go:9:1:call-drop": "gone"}, kept); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	if len(revisit) != 2 || !strings.Contains(revisit[0], "argued for other code (pin bbbb; the mutant there now is pin dddd)") ||
		!strings.Contains(revisit[1], "has no pin") || !strings.Contains(revisit[1], "f.go:3:1:call-drop@eeee") {
		t.Errorf("revisit = %q", revisit)
	}
}

// TestPinFollowsTheDiff: the pin is the mutation's, not its position's.
func TestPinFollowsTheDiff(t *testing.T) {
	a := Mutant{File: "f.go", Line: 3, Col: 2, Operator: "call-drop", Old: "tr.poststart()", Func: "TaskRunner.attempt"}
	b := a
	b.Line = 9
	c := a
	c.Old = "tr.runStopHooks()"
	d := a
	d.Func = "TaskRunner.loop"
	if a.Pin() != b.Pin() || a.Pin() == c.Pin() || a.Pin() == d.Pin() || len(a.Pin()) != 8 {
		t.Errorf("pins %s %s %s %s: want the same for the same diff anywhere in its function, another for another diff or function, 8 digits", a.Pin(), b.Pin(), c.Pin(), d.Pin())
	}
}
