package allocdirtest

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
)

// entry is one tar entry as the suite compares it. Mode is the permission
// bits (symlinks: 0, their mode is the platform's).
type entry struct {
	Name string
	Type byte
	Mode int64
	Link string
	Body string
}

// readTar decodes a whole archive; a truncated one is an error.
func readTar(b []byte) ([]entry, []*tar.Header, error) {
	tr := tar.NewReader(bytes.NewReader(b))
	var out []entry
	var hdrs []*tar.Header
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out, hdrs, nil
		}
		if err != nil {
			return out, hdrs, err
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			return out, hdrs, err
		}
		e := entry{Name: strings.TrimSuffix(hdr.Name, "/"), Type: hdr.Typeflag, Mode: hdr.Mode & 0o7777, Link: hdr.Linkname, Body: string(body)}
		if e.Type == tar.TypeSymlink {
			e.Mode = 0
		}
		out = append(out, e)
		hdrs = append(hdrs, hdr)
	}
}

// checkSnapshot: alloc/data then each task's local dir by task name, each
// walked lexically, names relative to the alloc dir, directories (roots
// included) and symlinks header-only, nothing else of the tree (ADIR-5,
// DET-2).
func checkSnapshot(e *env) error {
	r := &report{}
	a, err := e.alloc("a1", "web", "api")
	if err != nil {
		return err
	}
	if err := a.files(
		"alloc/data/b.txt", "bee",
		"alloc/data/a/", "",
		"alloc/data/a/x.txt", "ex",
		"alloc/data/link", "->b.txt",
		"api/local/conf", "c",
		"web/local/run.sh", "r",
		"web/secrets/token", "tok",
		"alloc/logs/out", "log",
	); err != nil {
		return err
	}
	var buf bytes.Buffer
	if !r.wantNil("Snapshot(w)", a.Snapshot(&buf)) {
		return r.err()
	}
	got, _, err := readTar(buf.Bytes())
	if err != nil {
		r.add("Snapshot(w) wrote an invalid tar: %v", err)
	}
	want := []entry{
		{Name: "alloc/data", Type: tar.TypeDir, Mode: 0o777},
		{Name: "alloc/data/a", Type: tar.TypeDir, Mode: 0o755},
		{Name: "alloc/data/a/x.txt", Type: tar.TypeReg, Mode: 0o644, Body: "ex"},
		{Name: "alloc/data/b.txt", Type: tar.TypeReg, Mode: 0o644, Body: "bee"},
		{Name: "alloc/data/link", Type: tar.TypeSymlink, Link: "b.txt"},
		{Name: "api/local", Type: tar.TypeDir, Mode: 0o777},
		{Name: "api/local/conf", Type: tar.TypeReg, Mode: 0o644, Body: "c"},
		{Name: "web/local", Type: tar.TypeDir, Mode: 0o777},
		{Name: "web/local/run.sh", Type: tar.TypeReg, Mode: 0o644, Body: "r"},
	}
	if d := cmp.Diff(want, got); d != "" {
		r.add("Snapshot(w) entries (-want +got):\n%s", d)
	}
	return r.err()
}

// checkSnapshotError: a walk error (a registered task whose local dir is
// missing) stops the walk, appends NOMAD-<allocID>-ERROR.log and is
// returned as "failed to snapshot <path>: <err>" (ADIR-5).
func checkSnapshotError(e *env) error {
	r := &report{}
	a, err := e.alloc("a1", "api", "zed")
	if err != nil {
		return err
	}
	ghost := a.NewTaskDir("ghost")
	if err := a.files("api/local/f", "f", "zed/local/z", "z"); err != nil {
		return err
	}
	var buf bytes.Buffer
	err = a.Snapshot(&buf)
	prefix := fmt.Sprintf("failed to snapshot %s: ", ghost.LocalDir)
	r.wantErrPrefix("Snapshot(w) with task ghost unbuilt", err, prefix)
	if !errors.Is(err, fs.ErrNotExist) {
		r.add("Snapshot(w) = %v, want an error matching fs.ErrNotExist for the missing root", err)
	}
	got, hdrs, terr := readTar(buf.Bytes())
	if terr != nil {
		r.add("Snapshot(w) wrote an invalid tar: %v", terr)
	}
	want := []entry{
		{Name: "alloc/data", Type: tar.TypeDir, Mode: 0o777},
		{Name: "api/local", Type: tar.TypeDir, Mode: 0o777},
		{Name: "api/local/f", Type: tar.TypeReg, Mode: 0o644, Body: "f"},
		{Name: "NOMAD-a1-ERROR.log", Type: tar.TypeReg, Mode: 0o666},
	}
	if err != nil && strings.HasPrefix(err.Error(), prefix) {
		want[3].Body = "Error snapshotting: " + strings.TrimPrefix(err.Error(), prefix)
	}
	if d := cmp.Diff(want, got); d != "" {
		r.add("Snapshot(w) entries (-want +got):\n%s", d)
	}
	if len(hdrs) == len(want) {
		h, at := hdrs[len(hdrs)-1], time.Date(2000, 0, 0, 0, 0, 0, 0, time.UTC)
		if !h.ModTime.Equal(at) {
			r.add("Snapshot(w) ERROR.log ModTime = %v, want %v", h.ModTime.UTC(), at)
		}
		for _, f := range []struct {
			name string
			t    time.Time
		}{{"AccessTime", h.AccessTime}, {"ChangeTime", h.ChangeTime}} {
			if !f.t.IsZero() && !f.t.Equal(at) {
				r.add("Snapshot(w) ERROR.log %s = %v, want %v", f.name, f.t.UTC(), at)
			}
		}
	}
	return r.err()
}
