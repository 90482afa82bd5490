package linearizability

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoenig/test/must"
)

// vizData is the part of porcupine's embedded data the tests read.
type vizData struct {
	Partitions []struct {
		History []struct {
			ClientId    int
			Description string
			Metadata    string
		}
	}
	Annotations []struct {
		Tag         string
		ClientId    int
		Description string
		Details     string
	}
}

// readViz reads the page at path and decodes the data porcupine embeds in
// it as `const data = {...}`.
func readViz(t *testing.T, path string) (string, vizData) {
	t.Helper()
	b, err := os.ReadFile(path)
	must.NoError(t, err)
	page := string(b)
	must.StrContains(t, page, "<html")
	must.StrContains(t, page, "</html>")
	_, rest, ok := strings.Cut(page, "const data = ")
	must.True(t, ok, must.Sprint("no embedded data"))
	line, _, _ := strings.Cut(rest, "\n")
	var data vizData
	must.NoError(t, json.Unmarshal([]byte(line), &data))
	return page, data
}

func TestVisualizeIllegal(t *testing.T) {
	parts := []Partition{{
		Key: "alloc1/0",
		Ops: []Op{
			set(0, 10, 20, fullAB),
			{Client: 1, Call: 12, Return: 18, Input: GetMounts{Aliases: ab}, Output: MountsSeen{Missing: "b"}, Note: "volumes prestart"},
			set(2, 30, Open, fullAB),
		},
		Annotations: []Annotation{{Client: 1, Start: 15, Description: "task restarted"}},
	}}
	r, err := CheckHookResources(parts, Options{Annotations: []Annotation{
		{Tag: "crashes", Start: 25, End: Open, Description: "agent crash", Details: "crash point csi_hook.prerun"},
	}})
	must.NoError(t, err)
	must.EqOp(t, Illegal, r.Verdict)
	must.True(t, r.CanVisualize())

	path := filepath.Join(t.TempDir(), "report", "viz", "hookres.html")
	must.NoError(t, r.Visualize(path))
	page, data := readViz(t, path)
	must.StrContains(t, page, "agent crash")

	must.SliceLen(t, 1, data.Partitions)
	var descs, metas []string
	for _, h := range data.Partitions[0].History {
		descs = append(descs, h.Description)
		metas = append(metas, h.Metadata)
	}
	must.SliceContains(t, descs, `get ["a" "b"] -> missing "b"`)
	must.SliceContains(t, descs, `set {"a": "/csi/a", "b": "/csi/b"}`)
	must.SliceContains(t, metas, "volumes prestart")
	must.SliceContains(t, metas, openNote)

	var annots []string
	for _, a := range data.Annotations {
		annots = append(annots, a.Tag+"|"+a.Description+"|"+a.Details)
	}
	must.Eq(t, []string{
		"partition|alloc1/0|hook resources partition alloc1/0",
		"|task restarted|",
		"crashes|agent crash|crash point csi_hook.prerun",
	}, annots)
}

func TestVisualizeUnknown(t *testing.T) {
	r, err := CheckServerView([]Partition{ambiguous("x", 24)}, Options{})
	must.NoError(t, err)
	must.EqOp(t, Unknown, r.Verdict)
	must.True(t, r.CanVisualize())
	path := filepath.Join(t.TempDir(), "unknown.html")
	must.NoError(t, r.Visualize(path))
	_, data := readViz(t, path)
	must.SliceLen(t, 1, data.Partitions)
	must.SliceLen(t, 25, data.Partitions[0].History)
}

func TestVisualizeOkHasNothingToDraw(t *testing.T) {
	r, err := CheckServerView([]Partition{okPart("a")}, Options{})
	must.NoError(t, err)
	must.False(t, r.CanVisualize())
	path := filepath.Join(t.TempDir(), "ok.html")
	err = r.Visualize(path)
	must.True(t, errors.Is(err, errNoVisualization), must.Sprint(err))
	_, statErr := os.Stat(path)
	must.True(t, errors.Is(statErr, os.ErrNotExist))

	must.False(t, Result{}.CanVisualize())
}

func TestVisualizeBadPath(t *testing.T) {
	r, err := CheckServerView([]Partition{illegalPart("a")}, Options{})
	must.NoError(t, err)
	file := filepath.Join(t.TempDir(), "file")
	must.NoError(t, os.WriteFile(file, nil, 0o644))
	err = r.Visualize(filepath.Join(file, "sub", "viz.html"))
	must.ErrorContains(t, err, "visualize")
}
