package interfaces

import (
	"context"
	"fmt"
	"io"
	"time"
)

// AllocDir is an allocation's directory (ADIR-1). Methods are safe for
// concurrent use. FS paths (List, Stat, ReadAt, BlockUntilExists,
// ChangeEvents) are relative to AllocDirPath and checked as impl/allocdir's package documentation describes (ADIR-4).
type AllocDir interface {
	// NewTaskDir registers the task dir of task, replacing an earlier one
	// of the same name, and returns it. It does no I/O.
	NewTaskDir(task string) *TaskDir
	// AllocDirPath is the absolute path of the alloc dir, <root>/<allocID>.
	AllocDirPath() string
	// ShareDirPath is the absolute path of the shared dir, <alloc dir>/alloc.
	ShareDirPath() string
	// GetTaskDir returns the registered task dir of task, or nil.
	GetTaskDir(task string) *TaskDir
	// Build makes the alloc dir layout (ADIR-2) and marks it built. It is
	// idempotent and makes no task dirs.
	Build() error
	// Destroy removes the whole tree, marks the alloc dir not built and
	// returns every removal error joined.
	Destroy() error
	// Move takes over other's alloc/data and, for each named task, other's
	// <task>/local (ADIR-3). The receiver must be built; call it before the
	// task dirs are built.
	Move(other AllocDir, tasks []string) error

	// List returns the entries of a directory sorted by name, without
	// following symlinks among them and without ContentType.
	List(path string) ([]*AllocFileInfo, error)
	// Stat describes path, following symlinks, with its ContentType.
	Stat(path string) (*AllocFileInfo, error)
	// ReadAt opens path and seeks to offset. Secrets and private files of
	// registered tasks are refused.
	ReadAt(path string, offset int64) (io.ReadCloser, error)
	// Snapshot writes a tar of alloc/data and each task's local dir
	// (ADIR-5).
	Snapshot(w io.Writer) error
	// BlockUntilExists returns a channel that receives nil once path exists,
	// or ctx's error once ctx is done, and is then closed. A path that
	// exists at the call gets its nil without waiting for a poll.
	BlockUntilExists(ctx context.Context, path string) (chan error, error)
	// ChangeEvents watches path, which must exist, for changes relative to
	// a reader at offset; see FileChanges.
	ChangeEvents(ctx context.Context, path string, offset int64) (*FileChanges, error)
}

// AllocDirFactory builds the (not yet built) alloc dir of an allocation. The alloc
// runner receives one; all alloc dirs of one Factory share one storage, so
// Move works between them.
type AllocDirFactory func(allocID string) AllocDir

// AllocFileInfo describes one file of an alloc dir (ADIR-5).
type AllocFileInfo struct {
	Name        string
	IsDir       bool
	Size        int64
	FileMode    string // Go fs.FileMode.String(), e.g. "dtrwxrwxrwx"
	ModTime     time.Time
	ContentType string `json:",omitempty"` // Stat only
}

// FileChanges are the notifications of ChangeEvents. Each channel has a
// buffer of one and coalesces: a notification not yet received absorbs the
// next ones of its kind. The channels are never closed.
//
// At every poll the watcher stats the path and compares it with the last
// size (initially the offset given to ChangeEvents) and modification time:
// a smaller size is Truncated, a larger size or a new time is Modified, a
// missing file is Deleted, after which the watcher stops. It also stops
// when the context is done.
type FileChanges struct {
	Modified  <-chan struct{}
	Truncated <-chan struct{}
	Deleted   <-chan struct{}
}

// TaskDir is one task's part of an alloc dir (ADIR-1, ADIR-2). Its paths
// are absolute. An AllocDir makes them with NewTaskDir.
type TaskDir struct {
	// Name is the task's name.
	Name string
	// Dir is <alloc dir>/<task>.
	Dir string
	// LocalDir is <task>/local, the part Move and Snapshot carry.
	LocalDir string
	// SecretsDir is <task>/secrets; ReadAt refuses it.
	SecretsDir string
	// PrivateDir is <task>/private; ReadAt refuses it.
	PrivateDir string
	// SharedAllocDir is the alloc's shared dir, <alloc dir>/alloc.
	SharedAllocDir string
	// LogDir is <alloc dir>/alloc/logs.
	LogDir string

	build func() error
}

// NewTaskDir returns a task dir with the paths of paths whose Build calls
// build, which makes the task's directories (ADIR-2) in the alloc dir's
// storage.
func NewTaskDir(paths TaskDir, build func() error) *TaskDir {
	t := paths
	t.build = build
	return &t
}

// Build makes the task's directories with their ADIR-2 modes. The alloc dir
// must be built. Building twice is harmless.
func (t *TaskDir) Build() error {
	if t.build == nil {
		return fmt.Errorf("task dir %s has no storage: make it with NewTaskDir", t.Dir)
	}
	return t.build()
}
