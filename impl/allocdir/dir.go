package allocdir

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/benbjohnson/clock"
)

// AllocDir implements interfaces.AllocDir over a storage: the real file system (NewDisk)
// or a MemFS (NewMem). It also implements Writer.
type AllocDir struct {
	id    string
	root  string // the client's alloc root
	dir   string // <root>/<id>
	share string // <dir>/alloc
	store storage
	clock clock.Clock
	poll  time.Duration

	mu    sync.Mutex
	tasks map[string]*interfaces.TaskDir
	built bool
}

var (
	_ interfaces.AllocDir = (*AllocDir)(nil)
	_ Writer              = (*AllocDir)(nil)
)

// NewDisk returns the alloc dir of allocID under cfg.Root on the real file
// system. allocID must be one path element. It fails when cfg.Clock is
// nil (there is no real-clock default, DET-1) or when a relative cfg.Root
// cannot be made absolute.
func NewDisk(cfg Config, allocID string) (*AllocDir, error) {
	root, err := cfg.diskRoot()
	if err != nil {
		return nil, err
	}
	return newAllocDir(diskStorage{}, root, allocID, cfg.Clock, cfg.pollInterval()), nil
}

// DiskFactory returns a Factory of NewDisk alloc dirs sharing cfg. It
// checks cfg once, with NewDisk's errors, so the factory cannot fail.
func DiskFactory(cfg Config) (interfaces.AllocDirFactory, error) {
	root, err := cfg.diskRoot()
	if err != nil {
		return nil, err
	}
	cfg.Root = root
	return func(allocID string) interfaces.AllocDir {
		return newAllocDir(diskStorage{}, cfg.Root, allocID, cfg.Clock, cfg.pollInterval())
	}, nil
}

// diskRoot checks cfg for NewDisk and returns its absolute root.
func (c Config) diskRoot() (string, error) {
	if c.Clock == nil {
		return "", errors.New("allocdir config: clock is nil")
	}
	root := c.Root
	if root == "" {
		root = DefaultRoot
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("allocdir config: root %q: %w", root, err)
	}
	return abs, nil
}

// NewMem returns the alloc dir of allocID under cfg.Root inside fsys. A nil
// cfg.Clock means fsys's clock. A nil fsys means a MemFS of its own on
// cfg.Clock, which is then required: NewMem panics when both are nil, a
// wiring mistake.
func NewMem(fsys *MemFS, cfg Config, allocID string) *AllocDir {
	if fsys == nil {
		fsys = newOwnMemFS("NewMem", cfg.Clock)
	}
	root := cfg.Root
	if root == "" {
		root = DefaultRoot
	}
	root = filepath.Join(string(filepath.Separator), root)
	clk := cfg.Clock
	if clk == nil {
		clk = fsys.clock
	}
	return newAllocDir(fsys, root, allocID, clk, cfg.pollInterval())
}

// MemFactory returns a Factory of NewMem alloc dirs sharing fsys (nil
// means one new MemFS on cfg.Clock; MemFactory panics when both are nil)
// and cfg.
func MemFactory(fsys *MemFS, cfg Config) interfaces.AllocDirFactory {
	if fsys == nil {
		fsys = newOwnMemFS("MemFactory", cfg.Clock)
	}
	return func(allocID string) interfaces.AllocDir { return NewMem(fsys, cfg, allocID) }
}

// newOwnMemFS is the MemFS of a NewMem or MemFactory given none.
func newOwnMemFS(caller string, clk clock.Clock) *MemFS {
	if clk == nil {
		panic("allocdir: " + caller + ": no MemFS and config clock is nil")
	}
	return NewMemFS(clk)
}

func newAllocDir(s storage, root, id string, clk clock.Clock, poll time.Duration) *AllocDir {
	dir := filepath.Join(root, id)
	return &AllocDir{
		id:    id,
		root:  root,
		dir:   dir,
		share: filepath.Join(dir, SharedAllocName),
		store: s,
		clock: clk,
		poll:  poll,
		tasks: map[string]*interfaces.TaskDir{},
	}
}

// AllocDirPath implements interfaces.AllocDir.
func (a *AllocDir) AllocDirPath() string { return a.dir }

// ShareDirPath implements interfaces.AllocDir.
func (a *AllocDir) ShareDirPath() string { return a.share }

// NewTaskDir implements interfaces.AllocDir.
func (a *AllocDir) NewTaskDir(task string) *interfaces.TaskDir {
	td := NewTaskDirLayout(a.dir, task, func(path string, mode fs.FileMode) error {
		return makeDir(a.store, path, mode)
	})
	a.mu.Lock()
	defer a.mu.Unlock()
	a.tasks[task] = td
	return td
}

// GetTaskDir implements interfaces.AllocDir.
func (a *AllocDir) GetTaskDir(task string) *interfaces.TaskDir {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.tasks[task]
}

// Build implements interfaces.AllocDir (ADIR-2, ADIR-3). A missing root is made with
// RootDirMode; an existing one is left alone.
func (a *AllocDir) Build() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, err := a.store.stat(a.root); isNotExist(err) {
		if err := a.store.mkdirAll(a.root, RootDirMode); err != nil {
			return fmt.Errorf(MsgBuildFailed, a.root, err)
		}
		if err := a.store.chmod(a.root, RootDirMode); err != nil {
			return fmt.Errorf(MsgBuildFailed, a.root, err)
		}
	}
	dirs := []struct {
		path string
		mode fs.FileMode
	}{
		{a.dir, AllocDirMode},
		{a.share, SharedDirMode},
		{filepath.Join(a.share, LogDirName), SharedDirMode},
		{filepath.Join(a.share, TmpDirName), SharedDirMode},
		{filepath.Join(a.share, DataDirName), SharedDirMode},
	}
	for _, d := range dirs {
		if err := makeDir(a.store, d.path, d.mode); err != nil {
			return fmt.Errorf(MsgBuildFailed, d.path, err)
		}
	}
	a.built = true
	return nil
}

// Destroy implements interfaces.AllocDir: it removes each entry of the alloc dir,
// then the dir, and joins every failure.
func (a *AllocDir) Destroy() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.built = false
	var errs []error
	entries, err := a.store.readDir(a.dir)
	if err != nil && !isNotExist(err) {
		errs = append(errs, err)
	}
	for _, e := range entries {
		p := filepath.Join(a.dir, e.Name())
		if err := a.store.removeAll(p); err != nil {
			errs = append(errs, fmt.Errorf("failed to remove %s: %w", p, err))
		}
	}
	if err := a.store.removeAll(a.dir); err != nil {
		errs = append(errs, fmt.Errorf("failed to remove %s: %w", a.dir, err))
	}
	return errors.Join(errs...)
}

// Move implements interfaces.AllocDir (ADIR-3). It works on paths, so other may be
// any implementation on the same storage; an *AllocDir on another storage
// is refused. Tasks are moved in name order; the first failure stops.
func (a *AllocDir) Move(other interfaces.AllocDir, tasks []string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.built {
		return fmt.Errorf(MsgMoveNotBuilt, a.dir)
	}
	if other == nil {
		return fmt.Errorf(MsgMoveData, errors.New("no alloc dir to move from"))
	}
	if o, ok := other.(*AllocDir); ok && o.store != a.store {
		return fmt.Errorf(MsgMoveData, fmt.Errorf("other alloc dir %s is on another storage", o.dir))
	}
	otherData := filepath.Join(other.ShareDirPath(), DataDirName)
	if _, err := a.store.stat(otherData); err == nil {
		data := filepath.Join(a.share, DataDirName)
		if err := a.store.removeAll(data); err != nil {
			return fmt.Errorf(MsgMoveData, err)
		}
		if err := a.store.rename(otherData, data); err != nil {
			return fmt.Errorf(MsgMoveData, err)
		}
	}
	for _, task := range slices.Sorted(slices.Values(tasks)) {
		otherLocal := filepath.Join(other.AllocDirPath(), task, LocalDirName)
		if _, err := a.store.stat(otherLocal); err != nil {
			continue
		}
		dir := filepath.Join(a.dir, task)
		if err := makeDir(a.store, dir, TaskDirMode); err != nil {
			return fmt.Errorf(MsgMoveTaskDir, task, err)
		}
		if err := a.store.rename(otherLocal, filepath.Join(dir, LocalDirName)); err != nil {
			return fmt.Errorf(MsgMoveTaskLocal, task, err)
		}
	}
	return nil
}
