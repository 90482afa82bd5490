package allocdir

import (
	"errors"
	"io/fs"
	"syscall"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
)

// TestWithin: the escape comparison ends at a separator; only the
// resolved check folds case (ADIR-4).
func TestWithin(t *testing.T) {
	cases := []struct {
		base, p string
		fold    bool
		want    bool
	}{
		{"/r/a1", "/r/a1", false, true},
		{"/r/a1", "/r/a1/x", false, true},
		{"/r/a1", "/r/a1x", false, false},
		{"/r/a1", "/r/a1x", true, false},
		{"/r/a1", "/r", true, false},
		{"/r/a1", "/R/A1/x", false, false},
		{"/r/a1", "/R/A1/x", true, true},
		{"/r/a1", "/R/A1x", true, false},
		{"/", "/anything", false, true},
		{"/r/a1", "/q/a1/x", true, false},
	}
	for _, c := range cases {
		if got := within(c.base, c.p, c.fold); got != c.want {
			t.Errorf("within(%q, %q, %v) = %v, want %v", c.base, c.p, c.fold, got, c.want)
		}
	}
}

// TestHasPrefixFold: secrets and private dirs match as a case-insensitive
// string prefix, no separator needed (ADIR-4).
func TestHasPrefixFold(t *testing.T) {
	cases := []struct {
		s, prefix string
		want      bool
	}{
		{"/a/web/secrets/x", "/a/web/secrets", true},
		{"/a/WEB/Secrets", "/a/web/secrets", true},
		{"/a/web/secretsX", "/a/web/secrets", true},
		{"/a/web/secret", "/a/web/secrets", false},
		{"/a/web/local", "/a/web/secrets", false},
	}
	for _, c := range cases {
		if got := hasPrefixFold(c.s, c.prefix); got != c.want {
			t.Errorf("hasPrefixFold(%q, %q) = %v, want %v", c.s, c.prefix, got, c.want)
		}
	}
}

type fakeInfo struct {
	size int64
	mod  time.Time
}

func (f fakeInfo) Name() string       { return "f" }
func (f fakeInfo) Size() int64        { return f.size }
func (f fakeInfo) Mode() fs.FileMode  { return 0o644 }
func (f fakeInfo) ModTime() time.Time { return f.mod }
func (f fakeInfo) IsDir() bool        { return false }
func (f fakeInfo) Sys() any           { return nil }

// TestClassify: the ChangeEvents rule of FileChanges (ADIR-5).
func TestClassify(t *testing.T) {
	t0 := time.Unix(100, 0)
	t1 := t0.Add(time.Second)
	cases := []struct {
		name string
		info fs.FileInfo
		want changeKind
	}{
		{"missing", nil, deleted},
		{"same", fakeInfo{10, t0}, unchanged},
		{"grown", fakeInfo{11, t0}, modified},
		{"touched", fakeInfo{10, t1}, modified},
		{"shrunk", fakeInfo{9, t1}, truncated},
	}
	for _, c := range cases {
		if got := classify(10, t0, c.info); got != c.want {
			t.Errorf("classify(10, t0, %s) = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestResolve: links relative and absolute, chains, ".." in targets,
// missing components, files in the way and loops, on a MemFS.
func TestResolve(t *testing.T) {
	m := NewMemFS(clock.NewMock())
	must.NoError(t, m.mkdirAll("/a/b", 0o755))
	must.NoError(t, m.writeFile("/a/b/f", []byte("x"), 0o644))
	for _, l := range [][2]string{
		{"/a/rel", "b"}, {"/a/abs", "/a/b/f"}, {"/a/up", "b/.."}, {"/a/chain", "rel"},
		{"/a/loop", "loop"}, {"/a/dangle", "nowhere"},
		// Found by TestMemFSMatchesDisk: the kernel wants a directory
		// before "..", before a trailing slash, and after a link followed
		// by one.
		{"/a/fdotdot", "b/f/.."}, {"/a/fslash", "b/f/"}, {"/a/viaslash", "abs/"},
	} {
		must.NoError(t, m.symlink(l[1], l[0]))
	}
	cases := []struct {
		in, want string
		err      error
	}{
		{"/", "/", nil},
		{"/a/rel/f", "/a/b/f", nil},
		{"/a/abs", "/a/b/f", nil},
		{"/a/up/b", "/a/b", nil},
		{"/a/chain/f", "/a/b/f", nil},
		{"/a/dangle", "", fs.ErrNotExist},
		{"/a/b/f/x", "", syscall.ENOTDIR},
		{"/a/loop", "", syscall.ELOOP},
		{"/a/fdotdot", "", syscall.ENOTDIR},
		{"/a/fslash", "", syscall.ENOTDIR},
		{"/a/viaslash", "", syscall.ENOTDIR},
		// Names that are not clean: the resolved path is not a prefix
		// of the name (resolve's shortcut must not take it).
		{"//a/b", "/a/b", nil},
		{"/a//b/f", "/a/b/f", nil},
		{"/a/./b", "/a/b", nil},
		{"/a/b/../b/f", "/a/b/f", nil},
		{"/a/rel//f", "/a/b/f", nil},
		{"/a/b/f/", "", syscall.ENOTDIR},
	}
	for _, c := range cases {
		got, err := m.resolve(c.in)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("resolve(%q) = %q, %v, want error %v", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("resolve(%q) = %q, %v, want %q", c.in, got, err, c.want)
		}
	}
}
