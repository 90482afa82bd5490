package allocdir

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"sort"
	"syscall"
)

// storage is what an AllocDir keeps its files in: the real file system
// (diskStorage) or a MemFS. Paths are absolute and clean. Errors follow the
// os package: *fs.PathError or *os.LinkError around a syscall.Errno, so both
// storages give the same messages and errors.Is(err, fs.ErrNotExist) works.
type storage interface {
	// lstat and readlink serve the shared symlink resolver (escape.go).
	lstat(name string) (fs.FileInfo, error)
	readlink(name string) (string, error)
	// resolve replaces every symlink of name by its target (see resolve).
	resolve(name string) (string, error)

	stat(name string) (fs.FileInfo, error)
	readDir(name string) ([]fs.FileInfo, error) // sorted by name, lstat infos
	open(name string) (io.ReadSeekCloser, error)

	mkdir(name string, perm fs.FileMode) error
	mkdirAll(name string, perm fs.FileMode) error
	chmod(name string, mode fs.FileMode) error
	writeFile(name string, data []byte, perm fs.FileMode) error
	symlink(target, name string) error
	remove(name string) error
	removeAll(name string) error
	rename(from, to string) error
}

// diskStorage is the real file system.
type diskStorage struct{}

var _ storage = diskStorage{}

func (diskStorage) lstat(name string) (fs.FileInfo, error) { return os.Lstat(name) }
func (diskStorage) readlink(name string) (string, error)   { return os.Readlink(name) }
func (d diskStorage) resolve(name string) (string, error)  { return resolve(d, name) }
func (diskStorage) stat(name string) (fs.FileInfo, error)  { return os.Stat(name) }

func (diskStorage) lmode(name string) (fs.FileMode, error) {
	info, err := os.Lstat(name)
	if err != nil {
		return 0, err
	}
	return info.Mode(), nil
}

func (diskStorage) readDir(name string) ([]fs.FileInfo, error) {
	entries, err := os.ReadDir(name)
	if err != nil {
		return nil, err
	}
	infos := make([]fs.FileInfo, 0, len(entries))
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		infos = append(infos, info)
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].Name() < infos[j].Name() })
	return infos, nil
}

func (diskStorage) open(name string) (io.ReadSeekCloser, error) { return os.Open(name) }

func (diskStorage) mkdir(name string, perm fs.FileMode) error { return os.Mkdir(name, perm) }

func (diskStorage) mkdirAll(name string, perm fs.FileMode) error {
	return os.MkdirAll(name, perm)
}

// chmod sets mode exactly, sticky bit included (os.Chmod maps
// fs.ModeSticky to S_ISVTX); it is how modes escape the umask.
func (diskStorage) chmod(name string, mode fs.FileMode) error { return os.Chmod(name, mode) }

func (diskStorage) writeFile(name string, data []byte, perm fs.FileMode) error {
	return os.WriteFile(name, data, perm)
}

func (diskStorage) symlink(target, name string) error { return os.Symlink(target, name) }
func (diskStorage) remove(name string) error          { return os.Remove(name) }
func (diskStorage) removeAll(name string) error       { return os.RemoveAll(name) }
func (diskStorage) rename(from, to string) error      { return os.Rename(from, to) }

// isNotExist reports whether err says a path does not exist, including a
// path that runs through a regular file.
func isNotExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// makeDir creates name (its parent must exist) or accepts an existing
// directory, then sets mode exactly.
func makeDir(s storage, name string, mode fs.FileMode) error {
	if err := s.mkdir(name, mode.Perm()); err != nil {
		info, serr := s.stat(name)
		if !errors.Is(err, fs.ErrExist) || serr != nil || !info.IsDir() {
			return err
		}
	}
	return s.chmod(name, mode)
}
