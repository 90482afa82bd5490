package allocdir

import (
	"context"
	"io"
	"io/fs"
	"time"

	"github.com/benbjohnson/clock"
)

// Interface is an allocation's directory (ADIR-1). Methods are safe for
// concurrent use. FS paths (List, Stat, ReadAt, BlockUntilExists,
// ChangeEvents) are relative to AllocDirPath and checked as described in
// the package documentation (ADIR-4).
type Interface interface {
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
	Move(other Interface, tasks []string) error

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

// Writer is the write side an alloc dir offers to tests, fixtures and the
// simulator; Interface itself has no writes. Paths are alloc-dir-relative
// and pass the escape check of the package documentation, for every
// existing ancestor too. The file or directory named gets perm exactly (no
// umask). Both AllocDir storages implement it, and
// allocdirtest.TestAllocDir requires it to set up fixtures.
type Writer interface {
	// MkdirAll makes path and missing parents (which get perm less the
	// storage's umask; a MemFS has none).
	MkdirAll(path string, perm fs.FileMode) error
	// WriteFile creates or replaces the file at path.
	WriteFile(path string, data []byte, perm fs.FileMode) error
	// Symlink makes path a symlink to target. target is stored verbatim
	// and is not checked: fixtures need links that point outside.
	Symlink(target, path string) error
	// Remove removes a file, a symlink or an empty directory.
	Remove(path string) error
}

// Factory builds the (not yet built) alloc dir of an allocation. The alloc
// runner receives one; all alloc dirs of one Factory share one storage, so
// Move works between them.
type Factory func(allocID string) Interface

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

// DefaultPollInterval is how often BlockUntilExists and ChangeEvents poll
// when Config.PollInterval is zero.
const DefaultPollInterval = 100 * time.Millisecond

// DefaultRoot is the alloc root used when Config.Root is empty.
const DefaultRoot = "/opt/nomad/data/alloc"

// Config configures an alloc dir. The zero value is usable.
type Config struct {
	// Root is the client's alloc root; the alloc dir is <Root>/<allocID>.
	// Empty means DefaultRoot. A relative Root is made absolute (on disk
	// against the working directory, in memory against "/").
	Root string
	// Clock paces polling (and, in memory, gives ModTime). Nil means the
	// real clock for NewDisk and the MemFS's clock for NewMem.
	Clock clock.Clock
	// PollInterval is the polling period of BlockUntilExists and
	// ChangeEvents. Zero or negative means DefaultPollInterval.
	PollInterval time.Duration
}

func (c Config) pollInterval() time.Duration {
	if c.PollInterval <= 0 {
		return DefaultPollInterval
	}
	return c.PollInterval
}
