package allocdir

import (
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// Directory names of the layout (ADIR-2).
const (
	SharedAllocName = "alloc"
	LogDirName      = "logs"
	TmpDirName      = "tmp"
	DataDirName     = "data"
	LocalDirName    = "local"
	SecretsDirName  = "secrets"
	PrivateDirName  = "private"
)

// Modes of the layout (ADIR-2).
const (
	RootDirMode   fs.FileMode = 0o711
	AllocDirMode  fs.FileMode = 0o755
	SharedDirMode fs.FileMode = 0o777
	TaskDirMode   fs.FileMode = 0o777
	TaskTmpMode               = fs.ModeSticky | 0o777
)

// NewTaskDirLayout returns the task dir of task inside allocDir whose Build
// calls makeDir(path, mode) for each of its directories in order; makeDir
// must create path (its parent exists) or accept an existing directory, and
// set mode exactly. Other implementations of interfaces.AllocDir use it to
// return TaskDirs.
func NewTaskDirLayout(allocDir, task string, makeDir func(path string, mode fs.FileMode) error) *interfaces.TaskDir {
	dir := filepath.Join(allocDir, task)
	shared := filepath.Join(allocDir, SharedAllocName)
	paths := interfaces.TaskDir{
		Name:           task,
		Dir:            dir,
		LocalDir:       filepath.Join(dir, LocalDirName),
		SecretsDir:     filepath.Join(dir, SecretsDirName),
		PrivateDir:     filepath.Join(dir, PrivateDirName),
		SharedAllocDir: shared,
		LogDir:         filepath.Join(shared, LogDirName),
	}
	return interfaces.NewTaskDir(paths, func() error {
		dirs := []struct {
			path string
			mode fs.FileMode
		}{
			{paths.Dir, TaskDirMode},
			{paths.LocalDir, TaskDirMode},
			{filepath.Join(paths.Dir, TmpDirName), TaskTmpMode},
			{paths.SecretsDir, TaskDirMode},
			{paths.PrivateDir, TaskDirMode},
		}
		for _, d := range dirs {
			if err := makeDir(d.path, d.mode); err != nil {
				return fmt.Errorf("failed to make task directory %s: %w", d.path, err)
			}
		}
		return nil
	})
}
