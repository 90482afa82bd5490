package allocdir

import (
	"io/fs"
	"time"

	"github.com/benbjohnson/clock"
)

// Writer is the write side an alloc dir offers to tests, fixtures and the
// simulator; interfaces.AllocDir itself has no writes. Paths are alloc-dir-relative
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

// DefaultPollInterval is how often BlockUntilExists and ChangeEvents poll
// when Config.PollInterval is zero.
const DefaultPollInterval = 100 * time.Millisecond

// DefaultRoot is the alloc root used when Config.Root is empty.
const DefaultRoot = "/opt/nomad/data/alloc"

// Config configures an alloc dir. Clock is required for NewDisk; the
// zero value of every other field is usable.
type Config struct {
	// Root is the client's alloc root; the alloc dir is <Root>/<allocID>.
	// Empty means DefaultRoot. A relative Root is made absolute (on disk
	// against the working directory, in memory against "/").
	Root string
	// Clock paces polling (and, in memory, gives ModTime). NewDisk and
	// DiskFactory reject a nil Clock; NewMem uses its MemFS's clock
	// instead. There is no real-clock default (DET-1): the production
	// adapter passes clock.New().
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
