package allocdir

import (
	"fmt"
	"io/fs"
	"path/filepath"
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

// TaskDir is one task's part of an alloc dir (ADIR-1, ADIR-2). Its paths
// are absolute.
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

	makeDir func(path string, mode fs.FileMode) error
}

// NewTaskDirLayout returns the task dir of task inside allocDir whose Build
// calls makeDir(path, mode) for each of its directories in order; makeDir
// must create path (its parent exists) or accept an existing directory, and
// set mode exactly. Other implementations of Interface use it to return
// TaskDirs.
func NewTaskDirLayout(allocDir, task string, makeDir func(path string, mode fs.FileMode) error) *TaskDir {
	dir := filepath.Join(allocDir, task)
	shared := filepath.Join(allocDir, SharedAllocName)
	return &TaskDir{
		Name:           task,
		Dir:            dir,
		LocalDir:       filepath.Join(dir, LocalDirName),
		SecretsDir:     filepath.Join(dir, SecretsDirName),
		PrivateDir:     filepath.Join(dir, PrivateDirName),
		SharedAllocDir: shared,
		LogDir:         filepath.Join(shared, LogDirName),
		makeDir:        makeDir,
	}
}

// Build makes the task's directories with their ADIR-2 modes. The alloc dir
// must be built. Building twice is harmless.
func (t *TaskDir) Build() error {
	if t.makeDir == nil {
		return fmt.Errorf(msgNoStorage, t.Dir)
	}
	dirs := []struct {
		path string
		mode fs.FileMode
	}{
		{t.Dir, TaskDirMode},
		{t.LocalDir, TaskDirMode},
		{filepath.Join(t.Dir, TmpDirName), TaskTmpMode},
		{t.SecretsDir, TaskDirMode},
		{t.PrivateDir, TaskDirMode},
	}
	for _, d := range dirs {
		if err := t.makeDir(d.path, d.mode); err != nil {
			return fmt.Errorf(msgTaskBuildFailed, d.path, err)
		}
	}
	return nil
}
