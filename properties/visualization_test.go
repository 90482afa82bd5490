package properties_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/properties"
	"golang.org/x/net/html"
)

// TestIllegalHistoryWritesVisualization: an Illegal hook-resource history
// (hookres-rmw's kept seed) writes porcupine's visualization among the
// failure's artifacts, names its path in the failure, and the page parses
// as HTML with the history's data in it.
func TestIllegalHistoryWritesVisualization(t *testing.T) {
	var seed uint64
	for _, s := range loadMutantSeeds(t) {
		if s.mutant == "hookres-rmw" {
			seed = s.seed
		}
	}
	m, _ := mutants.Lookup("hookres-rmw")
	dir := t.TempDir()
	const id = "HOOKRES-2/history-linearizable"
	rep := properties.Check(m.Factory, properties.WithProperty(id), properties.WithSeed(seed), properties.WithShrinkRuns(0), properties.WithArtifactDir(dir))
	res, ok := rep.Result(id)
	if rep.Err != nil || !ok || !res.Failed {
		t.Fatalf("seed %d: want a failure of %s, got %+v (%v)", seed, id, res, rep.Err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.porcupine.html"))
	if err != nil || len(paths) != 1 {
		t.Fatalf("visualizations written: %v (%v), want one; artifacts dir holds %v", paths, err, lsDir(dir))
	}
	if !strings.Contains(res.Message, paths[0]) {
		t.Errorf("the failure does not name %s:\n%s", paths[0], res.Message)
	}
	f, err := os.Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := html.Parse(f)
	if err != nil {
		t.Fatalf("%s does not parse as HTML: %v", paths[0], err)
	}
	var tags []string
	var text strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			tags = append(tags, n.Data)
		}
		if n.Type == html.TextNode {
			text.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, want := range []string{"html", "body", "script"} {
		if !strings.Contains(" "+strings.Join(tags, " ")+" ", " "+want+" ") {
			t.Errorf("no <%s> element in %s", want, paths[0])
		}
	}
	for _, want := range []string{"partial map", "client crash"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the visualization does not mention %q (the history and the run's crashes)", want)
		}
	}
}

func lsDir(dir string) []string {
	es, _ := os.ReadDir(dir)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}
