package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseAnnotations(t *testing.T) {
	in := `# comment

impl/client/sync.go:42:7:cond-negate   the loop exits on ctx either way: both branches return
impl/hookres/hookres.go:9:2:call-drop	a copy nobody reads
`
	got, err := parseAnnotations(strings.NewReader(in))
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
	for _, bad := range []struct{ in, want string }{
		{"impl/client/sync.go:42:7:cond-negate\n", "has no argument"},
		{"impl/client/sync.go:42:7:cond-negate x\nimpl/client/sync.go:42:7:cond-negate y\n", "twice"},
		{"sync.go:42 because\n", "not a mutant ID"},
	} {
		if _, err := parseAnnotations(strings.NewReader(bad.in)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: err = %v, want %q", bad.in, err, bad.want)
		}
	}
}

// TestTheAnnotationsFileParses: internal/mutation/equivalent.txt itself.
func TestTheAnnotationsFileParses(t *testing.T) {
	data, err := readFile("equivalent.txt")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parseAnnotations(strings.NewReader(data)); err != nil {
		t.Fatal(err)
	}
}
