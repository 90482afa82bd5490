package allocdir

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
)

// both returns a disk and a memory alloc dir of id with the same paths,
// on clk.
func both(t *testing.T, clk clock.Clock, id string) map[string]*AllocDir {
	root := filepath.Join(t.TempDir(), "alloc")
	return map[string]*AllocDir{
		"disk":   mustDisk(t, Config{Root: root, Clock: clk}, id),
		"memory": NewMem(NewMemFS(clk), Config{Root: root}, id),
	}
}

func mustDisk(t *testing.T, cfg Config, id string) *AllocDir {
	t.Helper()
	a, err := NewDisk(cfg, id)
	must.NoError(t, err)
	return a
}

// memDir is a memory alloc dir of id on a MemFS of its own.
func memDir(id string) *AllocDir { return NewMem(nil, Config{Clock: clock.NewMock()}, id) }

// TestBuildRoot: Build makes a missing client root 0711 and leaves an
// existing one alone (ADIR-2).
func TestBuildRoot(t *testing.T) {
	for name, a := range both(t, clock.NewMock(), "a1") {
		must.NoError(t, a.Build(), must.Sprint(name))
		info, err := a.store.lstat(a.root)
		must.NoError(t, err)
		must.EqOp(t, "drwx--x--x", info.Mode().String(), must.Sprint(name))
		must.NoError(t, a.store.chmod(a.root, 0o700))
		must.NoError(t, a.Build())
		info, err = a.store.lstat(a.root)
		must.NoError(t, err)
		must.EqOp(t, "drwx------", info.Mode().String(), must.Sprint(name))
	}
}

// TestBuildFailure: a root below a regular file fails with the ADIR-3
// message, the same text on both storages.
func TestBuildFailure(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	root := filepath.Join(file, "alloc")
	want := "Failed to make the alloc directory " + root + ": mkdir " + file + ": not a directory"
	mfs := NewMemFS(clock.NewMock())
	must.NoError(t, mfs.mkdirAll(base, 0o755))
	for name, s := range map[string]storage{"disk": diskStorage{}, "memory": mfs} {
		must.NoError(t, s.writeFile(file, []byte("x"), 0o644), must.Sprint(name))
		a := newAllocDir(s, root, "a1", clock.NewMock(), DefaultPollInterval)
		err := a.Build()
		must.EqError(t, err, want, must.Sprint(name))
		must.ErrorIs(t, err, syscall.ENOTDIR)
	}
	// The alloc dir itself in the way.
	mfs2 := memDir("a1")
	must.NoError(t, mfs2.store.mkdirAll(DefaultRoot, 0o711))
	must.NoError(t, mfs2.store.writeFile(mfs2.dir, nil, 0o644))
	must.EqError(t, mfs2.Build(), "Failed to make the alloc directory "+mfs2.dir+": mkdir "+mfs2.dir+": file exists")
	must.EqError(t, mfs2.NewTaskDir("web").Build(),
		"failed to make task directory "+mfs2.dir+"/web: mkdir "+mfs2.dir+"/web: not a directory")
}

// TestConfigDefaults: empty Root is DefaultRoot, relative roots become
// absolute, a nil clock in memory is the MemFS's.
func TestConfigDefaults(t *testing.T) {
	clk := clock.NewMock()
	must.EqOp(t, DefaultRoot+"/a1", mustDisk(t, Config{Clock: clk}, "a1").AllocDirPath())
	must.EqOp(t, DefaultRoot+"/a1", NewMem(nil, Config{Clock: clk}, "a1").AllocDirPath())
	must.EqOp(t, "/rel/a1", NewMem(nil, Config{Root: "rel", Clock: clk}, "a1").AllocDirPath())
	must.True(t, filepath.IsAbs(mustDisk(t, Config{Root: "rel", Clock: clk}, "a1").AllocDirPath()))
	f, err := DiskFactory(Config{Root: "rel", Clock: clk})
	must.NoError(t, err)
	must.True(t, filepath.IsAbs(f("a1").AllocDirPath()))
	must.Eq[clock.Clock](t, clk, NewMem(NewMemFS(clk), Config{}, "a1").clock)
	must.EqOp(t, DefaultPollInterval, NewMem(nil, Config{PollInterval: -1, Clock: clk}, "a1").poll)
	must.Eq[clock.Clock](t, clk, mustDisk(t, Config{Clock: clk}, "a1").clock)
	must.NotNil(t, MemFactory(nil, Config{Clock: clk})("a1"))
}

// TestNilClock: there is no real-clock default (DET-1). The disk
// constructors return an error; the memory ones, which have no error
// return, panic when they have no clock at all.
func TestNilClock(t *testing.T) {
	_, err := NewDisk(Config{Root: "/alloc"}, "a1")
	must.EqError(t, err, "allocdir config: clock is nil")
	_, err = DiskFactory(Config{})
	must.EqError(t, err, "allocdir config: clock is nil")
	must.Panic(t, func() { NewMemFS(nil) })
	must.Panic(t, func() { NewMem(nil, Config{}, "a1") })
	must.Panic(t, func() { MemFactory(nil, Config{Root: "/alloc"}) })
	must.NotNil(t, NewMem(NewMemFS(clock.NewMock()), Config{}, "a1"), must.Sprint("a MemFS gives the clock"))
}

// TestMemModTime: in memory, times come from the clock (ADIR-5).
func TestMemModTime(t *testing.T) {
	clk := clock.NewMock()
	clk.Set(time.Date(2024, 3, 10, 2, 30, 0, 0, time.UTC))
	a := NewMem(NewMemFS(clk), Config{}, "a1")
	must.NoError(t, a.Build())
	must.NoError(t, a.WriteFile("alloc/data/f", []byte("x"), 0o644))
	fi, err := a.Stat("alloc/data/f")
	must.NoError(t, err)
	must.Eq(t, clk.Now(), fi.ModTime)
	created := clk.Now()
	clk.Add(time.Hour)
	must.NoError(t, a.WriteFile("alloc/data/f", []byte("xy"), 0o644))
	infos, err := a.List("alloc/data")
	must.NoError(t, err)
	must.Eq(t, created.Add(time.Hour), infos[0].ModTime)
	dir, err := a.Stat("alloc/data")
	must.NoError(t, err)
	must.Eq(t, created, dir.ModTime)
}

// TestMoveOtherStorage: an *AllocDir on another storage is refused.
func TestMoveOtherStorage(t *testing.T) {
	a, b := memDir("a1"), memDir("a2")
	must.NoError(t, a.Build())
	must.EqError(t, a.Move(b, nil), "error moving data dir: other alloc dir "+b.dir+" is on another storage")
}

// TestWriterEscapes: the fixture Writer runs the escape check too, on
// every existing ancestor; a link itself may be removed.
func TestWriterEscapes(t *testing.T) {
	for name, a := range both(t, clock.NewMock(), "a1") {
		must.NoError(t, a.Build())
		must.NoError(t, a.Symlink("../../..", "alloc/data/up"))
		for _, err := range []error{
			a.WriteFile("alloc/data/up/x", nil, 0o644),
			a.MkdirAll("alloc/data/up/x/y", 0o755),
			a.Symlink("x", "../evil"),
			a.Remove("../a2"),
			a.WriteFile("alloc/data/up", nil, 0o644),
		} {
			must.ErrorIs(t, err, ErrPathEscapes, must.Sprint(name))
		}
		must.NoError(t, a.Remove("alloc/data/up"), must.Sprint(name))
		_, err := a.Stat("alloc/data/up")
		must.ErrorIs(t, err, os.ErrNotExist)
	}
}

// TestReadDirectory: reading an opened directory fails alike.
func TestReadDirectory(t *testing.T) {
	got := map[string]string{}
	for name, a := range both(t, clock.NewMock(), "a1") {
		must.NoError(t, a.Build())
		rc, err := a.ReadAt("alloc", 0)
		must.NoError(t, err)
		_, err = io.ReadAll(rc)
		must.ErrorIs(t, err, syscall.EISDIR)
		must.NoError(t, rc.Close())
		got[name] = err.Error()
	}
	must.EqOp(t, got["disk"], got["memory"])
}

// TestSnapshotRootEscapes: a task local dir that is a link outside is a
// walk error, not a way out (ADIR-4, ADIR-5).
func TestSnapshotRootEscapes(t *testing.T) {
	for name, a := range both(t, clock.NewMock(), "a1") {
		must.NoError(t, a.Build())
		td := a.NewTaskDir("web")
		must.NoError(t, a.MkdirAll("web", 0o777))
		must.NoError(t, a.Symlink("../..", "web/local"))
		var buf bytes.Buffer
		err := a.Snapshot(&buf)
		must.EqError(t, err, "failed to snapshot "+td.LocalDir+": "+MsgPathEscapes, must.Sprint(name))
		tr := tar.NewReader(&buf)
		var names []string
		for {
			hdr, err := tr.Next()
			if err == io.EOF {
				break
			}
			must.NoError(t, err)
			names = append(names, hdr.Name)
		}
		must.Eq(t, []string{"alloc/data", "NOMAD-a1-ERROR.log"}, names, must.Sprint(name))
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestSnapshotWriterFails: a failing writer is reported, never hidden.
func TestSnapshotWriterFails(t *testing.T) {
	a := memDir("a1")
	must.NoError(t, a.Build())
	must.NoError(t, a.WriteFile("alloc/data/f", bytes.Repeat([]byte("x"), 4096), 0o644))
	err := a.Snapshot(failingWriter{})
	must.ErrorContains(t, err, "disk full")
	must.True(t, strings.HasPrefix(err.Error(), "failed to snapshot "))
}

// TestPollInterval: polls happen every PollInterval of clock time,
// DefaultPollInterval when zero; an existing path needs no poll; a
// cancelled context wins (ADIR-5, DET-3).
func TestPollInterval(t *testing.T) {
	for _, c := range []struct {
		cfg   time.Duration
		every time.Duration
	}{{0, DefaultPollInterval}, {5 * time.Second, 5 * time.Second}} {
		synctest.Test(t, func(t *testing.T) {
			clk := clock.NewMock()
			a := NewMem(NewMemFS(clk), Config{Clock: clk, PollInterval: c.cfg}, "a1")
			must.NoError(t, a.Build())
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ch, err := a.BlockUntilExists(ctx, "alloc/f")
			must.NoError(t, err)
			must.NoError(t, a.WriteFile("alloc/f", nil, 0o644))
			synctest.Wait()
			clk.Add(c.every - time.Millisecond)
			synctest.Wait()
			must.Eq(t, 0, len(ch), must.Sprint("no poll before ", c.every))
			clk.Add(time.Millisecond)
			synctest.Wait()
			must.Eq(t, 1, len(ch), must.Sprint("a poll at ", c.every))

			ch, err = a.BlockUntilExists(ctx, "alloc/f")
			must.NoError(t, err)
			must.NoError(t, <-ch)

			done, stop := context.WithCancel(context.Background())
			stop()
			ch, err = a.BlockUntilExists(done, "alloc/never")
			must.NoError(t, err)
			must.ErrorIs(t, <-ch, context.Canceled)
		})
	}
}

// TestWatchEscapeLater: a path that becomes a link outside ends both
// watches: BlockUntilExists with the escape error, ChangeEvents as
// Deleted.
func TestWatchEscapeLater(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := clock.NewMock()
		a := NewMem(NewMemFS(clk), Config{Clock: clk}, "a1")
		must.NoError(t, a.Build())
		must.NoError(t, a.WriteFile("alloc/g", []byte("x"), 0o644))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ch, err := a.BlockUntilExists(ctx, "alloc/f")
		must.NoError(t, err)
		fc, err := a.ChangeEvents(ctx, "alloc/g", 1)
		must.NoError(t, err)
		must.NoError(t, a.Symlink("../..", "alloc/f"))
		must.NoError(t, a.Remove("alloc/g"))
		must.NoError(t, a.Symlink("../..", "alloc/g"))
		synctest.Wait()
		clk.Add(DefaultPollInterval)
		synctest.Wait()
		must.ErrorIs(t, <-ch, ErrPathEscapes)
		must.Eq(t, 1, len(fc.Deleted))
		must.Eq(t, 0, len(fc.Modified)+len(fc.Truncated))
	})
}

// TestMisuse: a nil other and a TaskDir literal are errors, not panics.
func TestMisuse(t *testing.T) {
	a := memDir("a1")
	must.NoError(t, a.Build())
	must.EqError(t, a.Move(nil, nil), "error moving data dir: no alloc dir to move from")
	must.ErrorContains(t, (&interfaces.TaskDir{Dir: "/x"}).Build(), "task dir /x has no storage")
}
