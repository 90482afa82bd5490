package allocdir_test

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/benbjohnson/clock"
)

// escapeFixture builds the same tree in a disk and a memory alloc dir with
// the same paths: a peer alloc, secrets, and symlinks that point outside,
// into secrets, in loops and back inside. Files that must never be read
// contain "SECRET".
func escapeFixture(tb testing.TB) (disk, mem *allocdir.AllocDir) {
	tb.Helper()
	root := filepath.Join(tb.TempDir(), "alloc")
	clk := clock.NewMock()
	mfs := allocdir.NewMemFS(clk)
	onDisk, err := allocdir.DiskFactory(allocdir.Config{Root: root, Clock: clk})
	if err != nil {
		tb.Fatalf("fixture: %v", err)
	}
	for _, f := range []interfaces.AllocDirFactory{onDisk, allocdir.MemFactory(mfs, allocdir.Config{Root: root})} {
		peer := f("a2").(*allocdir.AllocDir)
		a := f("a1").(*allocdir.AllocDir)
		steps := []error{peer.Build(), a.Build(), a.NewTaskDir("web").Build(),
			peer.WriteFile("alloc/data/secret", []byte("SECRET peer"), 0o644)}
		for _, kv := range [][2]string{
			{"alloc/data/in.txt", "inside"}, {"web/local/f", "local"},
			{"web/secrets/token", "SECRET token"}, {"web/private/key", "SECRET key"},
		} {
			steps = append(steps, a.WriteFile(kv[0], []byte(kv[1]), 0o644))
		}
		for _, kv := range [][2]string{
			{"alloc/data/up", "../../.."}, {"alloc/data/peer", "../../../a2/alloc/data/secret"},
			{"alloc/data/rootlink", "/"}, {"alloc/data/sec", "../../web/secrets/token"},
			{"alloc/data/webdir", "../../web"}, {"alloc/data/loop", "loop"},
			{"alloc/data/logs", "../logs"}, {"alloc/data/dangle", "../../../nowhere"},
			{"alloc/data/back", "../../../a1/alloc/data"}, {"web/local/s", "../secrets"},
		} {
			steps = append(steps, a.Symlink(kv[0+1], kv[0]))
		}
		for _, err := range steps {
			if err != nil {
				tb.Fatalf("fixture: %v", err)
			}
		}
		if disk == nil {
			disk = a
		} else {
			mem = a
		}
	}
	return disk, mem
}

// allowed is the oracle, from the standard library's EvalSymlinks on the
// disk tree: may an FS method succeed on path? read adds ADIR-4's secrets
// and private refusal on both the joined and the resolved path.
func allowed(dir, path string, read bool) bool {
	abs := filepath.Join(dir, path)
	base, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil || !(real == base || strings.HasPrefix(strings.ToLower(real), strings.ToLower(base)+"/")) {
		return false
	}
	if !read {
		return true
	}
	for _, p := range []string{abs, dir + real[len(base):]} {
		for _, secret := range []string{"web/secrets", "web/private"} {
			if strings.HasPrefix(strings.ToLower(p), strings.ToLower(filepath.Join(dir, secret))) {
				return false
			}
		}
	}
	return true
}

// observe runs Stat, List and ReadAt on path and checks them against the
// oracle; it returns what it saw, for comparing the two storages.
func observe(t *testing.T, label string, a *allocdir.AllocDir, oracleDir, path string) [3]string {
	var seen [3]string
	if fi, err := a.Stat(path); err == nil {
		if !allowed(oracleDir, path, false) {
			t.Errorf("%s: Stat(%q) = %+v, want an error: the path is not inside", label, path, fi)
		}
		seen[0] = fi.Name + " " + fi.FileMode
	}
	if infos, err := a.List(path); err == nil {
		if !allowed(oracleDir, path, false) {
			t.Errorf("%s: List(%q) = %d entries, want an error: the path is not inside", label, path, len(infos))
		}
		for _, fi := range infos {
			seen[1] += fi.Name + " " + fi.FileMode + ","
		}
	}
	if rc, err := a.ReadAt(path, 0); err == nil {
		b, rerr := io.ReadAll(rc)
		rc.Close()
		if !allowed(oracleDir, path, true) || bytes.Contains(b, []byte("SECRET")) {
			t.Errorf("%s: ReadAt(%q, 0) = %q, want an error: not inside or secret", label, path, b)
		}
		seen[2] = "read " + string(b)
		if rerr != nil {
			seen[2] = "read error"
		}
	}
	return seen
}

// FuzzNoEscape: no Stat, List or ReadAt path, symlinks included, reaches
// outside the alloc dir or into secrets, on either storage, and both
// storages agree (ADIR-4). The seeds run under plain go test.
func FuzzNoEscape(f *testing.F) {
	for _, p := range []string{
		"", ".", "..", "/", "alloc/data/in.txt", "alloc/data/up", "alloc/data/up/a2/alloc/data/secret",
		"alloc/data/up/a1/alloc/data/in.txt", "alloc/data/peer", "alloc/data/rootlink",
		"alloc/data/rootlink/etc/passwd", "alloc/data/sec", "alloc/data/webdir/secrets/token",
		"alloc/data/webdir/local/f", "alloc/data/webdir/private", "alloc/data/loop", "alloc/data/logs",
		"alloc/data/dangle", "alloc/data/back/in.txt", "alloc/data/back/../../web/secrets/token",
		"web/local/s/token", "WEB/SECRETS/token", "web/secrets", "../a2/alloc/data/secret",
		"alloc/../../a2", "..in", "alloc/data/in.txt/x", "a\x00b", "web/local/../../alloc/data/peer",
	} {
		f.Add(p)
	}
	disk, mem := escapeFixture(f)
	memRoot := mem.AllocDirPath()
	f.Fuzz(func(t *testing.T, path string) {
		fromDisk := observe(t, "disk", disk, disk.AllocDirPath(), path)
		fromMem := observe(t, "memory", mem, memRoot, path)
		for i, op := range []string{"Stat", "List", "ReadAt"} {
			if fromDisk[i] != fromMem[i] {
				t.Errorf("%s(%q): disk saw %q, memory saw %q, want the same", op, path, fromDisk[i], fromMem[i])
			}
		}
	})
}
