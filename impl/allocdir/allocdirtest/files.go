package allocdirtest

import (
	"net/http"
	"strings"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/interfaces"
)

// dataFixture is the common alloc/data tree of the file checks.
func (e *env) dataFixture() (*fixture, error) {
	a, err := e.alloc("a1")
	if err != nil {
		return nil, err
	}
	return a, a.files(
		"alloc/data/b.txt", "bee",
		"alloc/data/a/", "",
		"alloc/data/a/x.txt", "ex",
		"alloc/data/link", "->b.txt",
		"alloc/data/alink", "->a",
		"alloc/data/empty", "",
	)
}

// checkList: sorted entries, symlinks not followed, no ContentType; a
// symlinked directory lists its target (ADIR-5).
func checkList(e *env) error {
	r := &report{}
	a, err := e.dataFixture()
	if err != nil {
		return err
	}
	infos := r.wantNames(a, "alloc/data", "a", "alink", "b.txt", "empty", "link")
	want := map[string]interfaces.AllocFileInfo{
		"a":     {Name: "a", IsDir: true, FileMode: "drwxr-xr-x"},
		"b.txt": {Name: "b.txt", Size: 3, FileMode: "-rw-r--r--"},
		"empty": {Name: "empty", FileMode: "-rw-r--r--"},
	}
	for _, fi := range infos {
		if fi.ContentType != "" {
			r.add("List(%q) entry %q ContentType = %q, want empty", "alloc/data", fi.Name, fi.ContentType)
		}
		if strings.HasSuffix(fi.Name, "link") {
			if fi.IsDir || !strings.HasPrefix(fi.FileMode, "L") {
				r.add("List(%q) entry %q = IsDir %v, FileMode %q, want a symlink (L...)", "alloc/data", fi.Name, fi.IsDir, fi.FileMode)
			}
			continue
		}
		w := want[fi.Name]
		if fi.IsDir != w.IsDir || fi.FileMode != w.FileMode || (!w.IsDir && fi.Size != w.Size) {
			r.add("List(%q) entry %q = {IsDir %v, Size %d, FileMode %q}, want {IsDir %v, Size %d, FileMode %q}",
				"alloc/data", fi.Name, fi.IsDir, fi.Size, fi.FileMode, w.IsDir, w.Size, w.FileMode)
		}
	}
	r.wantNames(a, "alloc/data/alink", "x.txt")
	if _, err := a.List("alloc/data/b.txt"); err == nil {
		r.add("List(%q) = nil error, want an error for a file", "alloc/data/b.txt")
	}
	_, err = a.List("alloc/data/missing")
	r.wantNotExist(`List("alloc/data/missing")`, err)
	return r.err()
}

// checkStat: Stat follows symlinks and names the path's last element; the
// alloc dir itself is "" (ADIR-5).
func checkStat(e *env) error {
	r := &report{}
	a, err := e.dataFixture()
	if err != nil {
		return err
	}
	for _, c := range []struct {
		path string
		want interfaces.AllocFileInfo
	}{
		{"alloc/data/b.txt", interfaces.AllocFileInfo{Name: "b.txt", Size: 3, FileMode: "-rw-r--r--", ContentType: "text/plain; charset=utf-8"}},
		{"alloc/data/link", interfaces.AllocFileInfo{Name: "link", Size: 3, FileMode: "-rw-r--r--", ContentType: "text/plain; charset=utf-8"}},
		{"alloc/data/a", interfaces.AllocFileInfo{Name: "a", IsDir: true, FileMode: "drwxr-xr-x", ContentType: allocdir.ContentTypeOctetStream}},
		{"alloc/data/alink", interfaces.AllocFileInfo{Name: "alink", IsDir: true, FileMode: "drwxr-xr-x", ContentType: allocdir.ContentTypeOctetStream}},
		{"", interfaces.AllocFileInfo{Name: "a1", IsDir: true, FileMode: modeAllocDir, ContentType: allocdir.ContentTypeOctetStream}},
	} {
		fi, err := a.Stat(c.path)
		if err != nil || fi == nil {
			r.add("Stat(%q) = %v, %v, want %+v", c.path, fi, err, c.want)
			continue
		}
		got := *fi
		got.ModTime = c.want.ModTime
		if got.IsDir {
			got.Size = 0 // directory sizes are the storage's business
		}
		if got != c.want {
			r.add("Stat(%q) = %+v, want %+v", c.path, got, c.want)
		}
	}
	_, err = a.Stat("alloc/data/missing")
	r.wantNotExist(`Stat("alloc/data/missing")`, err)
	return r.err()
}

// checkContentType: directories octet-stream, .json application/json,
// files sniffed from their first 512 bytes, empty octet-stream (ADIR-5).
func checkContentType(e *env) error {
	r := &report{}
	a, err := e.alloc("a1")
	if err != nil {
		return err
	}
	long := strings.Repeat("plain text ", 100) // > 512 bytes
	cases := []struct{ name, content, want string }{
		{"x.json", `{"a": 1}`, allocdir.ContentTypeJSON},
		{"x.txt", `{"a": 1}`, http.DetectContentType([]byte(`{"a": 1}`))},
		{"page.html", "<!DOCTYPE html><html></html>", "text/html; charset=utf-8"},
		{"img.png", "\x89PNG\x0D\x0A\x1A\x0A rest", "image/png"},
		{"bin", "\x00\x01\x02\x03", allocdir.ContentTypeOctetStream},
		{"long.log", long, http.DetectContentType([]byte(long[:512]))},
		{"empty", "", allocdir.ContentTypeOctetStream},
	}
	for _, c := range cases {
		if err := a.files("alloc/data/"+c.name, c.content); err != nil {
			return err
		}
	}
	if err := a.files("alloc/data/dir/", ""); err != nil {
		return err
	}
	cases = append(cases, struct{ name, content, want string }{"dir", "", allocdir.ContentTypeOctetStream})
	for _, c := range cases {
		p := "alloc/data/" + c.name
		fi, err := a.Stat(p)
		switch {
		case err != nil || fi == nil:
			r.add("Stat(%q) = %v, %v, want ContentType %q", p, fi, err, c.want)
		case fi.ContentType != c.want:
			r.add("Stat(%q).ContentType = %q, want %q", p, fi.ContentType, c.want)
		}
	}
	return r.err()
}

// checkReadAt: reads from the offset, follows symlinks, names a seek
// failure (ADIR-5).
func checkReadAt(e *env) error {
	r := &report{}
	a, err := e.dataFixture()
	if err != nil {
		return err
	}
	r.wantContent(a, "alloc/data/b.txt", 0, "bee")
	r.wantContent(a, "alloc/data/b.txt", 1, "ee")
	r.wantContent(a, "alloc/data/b.txt", 3, "")
	r.wantContent(a, "alloc/data/b.txt", 10, "")
	r.wantContent(a, "alloc/data/link", 1, "ee")
	r.wantContent(a, "alloc/data/a/x.txt", 0, "ex")
	_, err = a.ReadAt("alloc/data/b.txt", -1)
	r.wantErrPrefix(`ReadAt("alloc/data/b.txt", -1)`, err, "can't seek to offset -1: ")
	_, err = a.ReadAt("alloc/data/missing", 0)
	r.wantNotExist(`ReadAt("alloc/data/missing", 0)`, err)
	return r.err()
}
