package allocdirtest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/benbjohnson/clock"
)

// PollStep is how far the suite advances the clock to let an
// implementation poll: BlockUntilExists and ChangeEvents must poll at
// least once per PollStep of clock time.
const PollStep = time.Second

// TestAllocDir runs every property of SPEC §6 against the alloc dirs of
// newFactory, one subtest each (ADIR-1..ADIR-5).
//
// newFactory is called once per subtest, inside that subtest's synctest
// bubble, with the bubble's t and a new *clock.Mock. It returns a Factory
// whose alloc dirs (the suite picks IDs such as "a1", "a1x", "prev") are
// not built, live under one fresh alloc root of one storage (so Move works
// between them), take time from clk, and implement allocdir.Writer so the
// suite can make fixtures. The suite assumes Writer applies perm exactly.
func TestAllocDir(t *testing.T, newFactory func(t *testing.T, clk *clock.Mock) interfaces.AllocDirFactory) {
	t.Helper()
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if err := runCheck(t, c, newFactory); err != nil {
				t.Errorf("%s (%s):\n%v", c.name, c.spec, err)
			}
		})
	}
}

// check is one property: run returns every violation it found, joined.
type check struct {
	name string
	spec string
	run  func(e *env) error
}

// checks in subtest order; each lives in the file of its concept.
var checks = []check{
	{"Layout", "ADIR-1, ADIR-2", checkLayout},
	{"TaskDirs", "ADIR-1", checkTaskDirs},
	{"BuildIdempotent", "ADIR-3", checkBuildIdempotent},
	{"Destroy", "ADIR-3", checkDestroy},
	{"Move", "ADIR-3", checkMove},
	{"MoveNotBuilt", "ADIR-3", checkMoveNotBuilt},
	{"MoveErrors", "ADIR-3", checkMoveErrors},
	{"List", "ADIR-5", checkList},
	{"Stat", "ADIR-5", checkStat},
	{"ContentType", "ADIR-5", checkContentType},
	{"ReadAt", "ADIR-5", checkReadAt},
	{"Snapshot", "ADIR-5, DET-2", checkSnapshot},
	{"SnapshotError", "ADIR-5", checkSnapshotError},
	{"BlockUntilExists", "ADIR-5", checkBlockUntilExists},
	{"ChangeEvents", "ADIR-5", checkChangeEvents},
	{"EscapeLexical", "ADIR-4", checkEscapeLexical},
	{"EscapeSymlink", "ADIR-4", checkEscapeSymlink},
	{"EscapeSibling", "ADIR-4", checkEscapeSibling},
	{"EscapeNonExistent", "ADIR-4", checkEscapeNonExistent},
	{"EscapeCheckFails", "ADIR-4", checkEscapeCheckFails},
	{"Secrets", "ADIR-4", checkSecrets},
	{"SecretsViaSymlink", "ADIR-4", checkSecretsViaSymlink},
	{"Concurrent", "ADIR-1", checkConcurrent},
}

// runCheck runs c in a synctest bubble; a panic is a violation too.
func runCheck(t *testing.T, c check, newFactory func(*testing.T, *clock.Mock) interfaces.AllocDirFactory) (err error) {
	synctest.Test(t, func(t *testing.T) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		clk := clock.NewMock()
		err = c.run(&env{t: t, clk: clk, factory: newFactory(t, clk)})
	})
	return err
}

// env is one check's world.
type env struct {
	t       *testing.T
	clk     *clock.Mock
	factory interfaces.AllocDirFactory
}

// fixture is a built alloc dir with its Writer.
type fixture struct {
	interfaces.AllocDir
	w allocdir.Writer
}

// alloc returns the built alloc dir id with tasks registered and built.
func (e *env) alloc(id string, tasks ...string) (*fixture, error) {
	a := e.factory(id)
	w, ok := a.(allocdir.Writer)
	if !ok {
		return nil, fmt.Errorf("setup: %T does not implement allocdir.Writer", a)
	}
	if err := a.Build(); err != nil {
		return nil, fmt.Errorf("setup: Build() = %w, want nil", err)
	}
	for _, task := range tasks {
		td := a.NewTaskDir(task)
		if td == nil {
			return nil, fmt.Errorf("setup: NewTaskDir(%q) = nil, want a task dir", task)
		}
		if err := td.Build(); err != nil {
			return nil, fmt.Errorf("setup: TaskDir(%q).Build() = %w, want nil", task, err)
		}
	}
	return &fixture{a, w}, nil
}

// files writes fixture files and symlinks: a value starting with "->" is
// a symlink to the rest, a name ending in "/" a directory (0755), anything
// else a 0644 file with that content. Order matters; first error wins.
func (f *fixture) files(kv ...string) error {
	for i := 0; i+1 < len(kv); i += 2 {
		name, v := kv[i], kv[i+1]
		var err error
		switch {
		case len(v) >= 2 && v[:2] == "->":
			err = f.w.Symlink(v[2:], name)
		case name[len(name)-1] == '/':
			err = f.w.MkdirAll(name, 0o755)
		default:
			err = f.w.WriteFile(name, []byte(v), 0o644)
		}
		if err != nil {
			return fmt.Errorf("setup: writing %q: %w", name, err)
		}
	}
	return nil
}

// report collects violations.
type report struct{ errs []error }

func (r *report) add(format string, args ...any) {
	r.errs = append(r.errs, fmt.Errorf(format, args...))
}

func (r *report) err() error { return errors.Join(r.errs...) }

// wantErr requires err's text to be exactly want.
func (r *report) wantErr(op string, err error, want string) {
	if err == nil || err.Error() != want {
		r.add("%s = %v, want error %q", op, err, want)
	}
}

// wantErrPrefix requires err's text to start with prefix.
func (r *report) wantErrPrefix(op string, err error, prefix string) {
	if err == nil || len(err.Error()) < len(prefix) || err.Error()[:len(prefix)] != prefix {
		r.add("%s = %v, want error starting %q", op, err, prefix)
	}
}

// wantNotExist requires an error that is fs.ErrNotExist.
func (r *report) wantNotExist(op string, err error) {
	if !errors.Is(err, fs.ErrNotExist) {
		r.add("%s = %v, want an error matching fs.ErrNotExist", op, err)
	}
}

func (r *report) wantNil(op string, err error) bool {
	if err != nil {
		r.add("%s = %v, want nil", op, err)
	}
	return err == nil
}

// wantMode stats path and compares its Go mode string.
func (r *report) wantMode(a interfaces.AllocDir, path, want string) {
	fi, err := a.Stat(path)
	switch {
	case err != nil:
		r.add("Stat(%q) = %v, want mode %s", path, err, want)
	case fi == nil:
		r.add("Stat(%q) = nil, want mode %s", path, want)
	case fi.FileMode != want:
		r.add("Stat(%q).FileMode = %q, want %q", path, fi.FileMode, want)
	}
}

// wantNames lists path and compares the entry names, in order.
func (r *report) wantNames(a interfaces.AllocDir, path string, want ...string) []*interfaces.AllocFileInfo {
	infos, err := a.List(path)
	if err != nil {
		r.add("List(%q) = %v, want entries %q", path, err, want)
		return nil
	}
	got := make([]string, 0, len(infos))
	for _, fi := range infos {
		if fi == nil {
			r.add("List(%q) has a nil entry", path)
			return nil
		}
		got = append(got, fi.Name)
	}
	if !slices.Equal(got, want) {
		r.add("List(%q) names = %q, want %q", path, got, want)
	}
	return infos
}

// wantContent reads path from offset and compares the bytes.
func (r *report) wantContent(a interfaces.AllocDir, path string, offset int64, want string) {
	got, err := readAt(a, path, offset)
	if err != nil {
		r.add("ReadAt(%q, %d) = %v, want content %q", path, offset, err, want)
	} else if got != want {
		r.add("ReadAt(%q, %d) content = %q, want %q", path, offset, got, want)
	}
}

func readAt(a interfaces.AllocDir, path string, offset int64) (string, error) {
	rc, err := a.ReadAt(path, offset)
	if err != nil {
		return "", err
	}
	if rc == nil {
		return "", errors.New("nil ReadCloser")
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	return string(b), err
}
