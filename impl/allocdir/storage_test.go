package allocdir

import (
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benbjohnson/clock"
	"pgregory.net/rapid"
)

// universe is every path of up to three elements from {a, b, c}.
func universe(root string) []string {
	var out []string
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		if depth == 0 {
			return
		}
		for _, c := range []string{"a", "b", "c"} {
			p := filepath.Join(prefix, c)
			out = append(out, p)
			walk(p, depth-1)
		}
	}
	walk(root, 3)
	return out
}

// errText normalises an error for comparison between storages.
func errText(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

// observeStorage is everything the alloc dir reads from a storage about
// one path.
func observeStorage(s storage, p string) string {
	var b strings.Builder
	if info, err := s.lstat(p); err != nil {
		fmt.Fprintf(&b, "lstat %s; ", errText(err))
	} else {
		size := info.Size()
		if info.IsDir() {
			size = 0
		}
		fmt.Fprintf(&b, "lstat %s %s %d; ", info.Name(), info.Mode(), size)
	}
	if info, err := s.stat(p); err != nil {
		fmt.Fprintf(&b, "stat %s; ", errText(err))
	} else {
		fmt.Fprintf(&b, "stat %s %s; ", info.Name(), info.Mode())
	}
	target, err := s.readlink(p)
	fmt.Fprintf(&b, "readlink %q %s; ", target, errText(err))
	real, err := s.resolve(p)
	fmt.Fprintf(&b, "resolve %q %s; ", real, errText(err))
	if infos, err := s.readDir(p); err != nil {
		fmt.Fprintf(&b, "readDir %s; ", errText(err))
	} else {
		for _, i := range infos {
			fmt.Fprintf(&b, "%s %s,", i.Name(), i.Mode())
		}
	}
	if f, err := s.open(p); err != nil {
		fmt.Fprintf(&b, "open %s", errText(err))
	} else {
		data, err := io.ReadAll(f)
		f.Close()
		fmt.Fprintf(&b, "read %q %s", data, errText(err))
	}
	return b.String()
}

// TestMemFSMatchesDisk: random sequences of storage operations on a MemFS
// and on real files under the same paths give the same results, error
// texts included, and leave trees that read the same (the in-memory
// storage is a faithful stand-in, ADIR-5).
func TestMemFSMatchesDisk(t *testing.T) {
	base := t.TempDir()
	run := 0
	rapid.Check(t, func(rt *rapid.T) {
		run++
		root := filepath.Join(base, fmt.Sprint(run), "d1", "d2", "r")
		disk, mem := storage(diskStorage{}), storage(NewMemFS(clock.NewMock()))
		for _, s := range []storage{disk, mem} {
			if err := s.mkdirAll(root, 0o755); err != nil {
				rt.Fatalf("mkdirAll(%q) = %v", root, err)
			}
		}
		paths := universe(root)
		path := rapid.SampledFrom(paths)
		targets := []string{"a", "b/c", "../a", ".", "..", "nowhere", root + "/b", "a/../c", "b/c/..", "c/", "../../r/a"}
		for i := range rapid.IntRange(1, 25).Draw(rt, "ops") {
			p := path.Draw(rt, fmt.Sprintf("path%d", i))
			var op string
			var apply func(s storage) error
			switch kind := rapid.IntRange(0, 8).Draw(rt, fmt.Sprintf("op%d", i)); kind {
			case 0:
				op, apply = "mkdir", func(s storage) error { return s.mkdir(p, 0o755) }
			case 1:
				op, apply = "mkdirAll", func(s storage) error { return s.mkdirAll(p, 0o755) }
			case 2:
				data := rapid.SampledFrom([]string{"", "x", "hello"}).Draw(rt, fmt.Sprintf("data%d", i))
				op, apply = "writeFile "+data, func(s storage) error { return s.writeFile(p, []byte(data), 0o644) }
			case 3:
				target := rapid.SampledFrom(targets).Draw(rt, fmt.Sprintf("target%d", i))
				op, apply = "symlink "+target, func(s storage) error { return s.symlink(target, p) }
			case 4:
				op, apply = "remove", func(s storage) error { return s.remove(p) }
			case 5:
				op, apply = "removeAll", func(s storage) error { return s.removeAll(p) }
			case 6:
				q := path.Draw(rt, fmt.Sprintf("to%d", i))
				op, apply = "rename to "+q, func(s storage) error { return s.rename(p, q) }
			case 8:
				op, apply = "makeDir sticky", func(s storage) error { return makeDir(s, p, TaskTmpMode) }
			case 7:
				mode := rapid.SampledFrom([]fs.FileMode{0o700, 0o777, fs.ModeSticky | 0o777}).Draw(rt, fmt.Sprintf("mode%d", i))
				op, apply = "chmod "+mode.String(), func(s storage) error { return s.chmod(p, mode) }
			}
			if d, m := errText(apply(disk)), errText(apply(mem)); d != m {
				rt.Fatalf("%s %s: disk %s, memory %s", op, p, d, m)
			}
		}
		for _, p := range paths {
			if d, m := observeStorage(disk, p), observeStorage(mem, p); d != m {
				rt.Fatalf("%s:\ndisk   %s\nmemory %s", p, d, m)
			}
		}
	})
}
