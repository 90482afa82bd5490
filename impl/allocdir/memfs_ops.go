package allocdir

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// permBits are the mode bits chmod may set.
const permBits = fs.ModePerm | fs.ModeSticky | fs.ModeSetuid | fs.ModeSetgid

func (m *MemFS) lstat(name string) (fs.FileInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, _, err := m.node("lstat", name, false)
	if err != nil {
		return nil, err
	}
	return n.info(filepath.Base(name)), nil
}

func (m *MemFS) stat(name string) (fs.FileInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, _, err := m.node("stat", name, true)
	if err != nil {
		return nil, err
	}
	return n.info(filepath.Base(name)), nil
}

func (m *MemFS) readlink(name string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, _, err := m.node("readlink", name, false)
	if err != nil {
		return "", err
	}
	if n.mode&fs.ModeSymlink == 0 {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: syscall.EINVAL}
	}
	return n.target, nil
}

func (m *MemFS) resolve(name string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.resolveLocked(name, true)
}

func (m *MemFS) readDir(name string) ([]fs.FileInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, _, err := m.node("open", name, true)
	if err != nil {
		return nil, err
	}
	if !n.isDir() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOTDIR}
	}
	out := make([]fs.FileInfo, 0, len(n.entries))
	for _, e := range n.entries { // sorted
		out = append(out, e.node.info(e.name))
	}
	return out, nil
}

func (m *MemFS) open(name string) (io.ReadSeekCloser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, _, err := m.node("open", name, true)
	if err != nil {
		return nil, err
	}
	return &memFile{name: name, dir: n.isDir(), r: bytes.NewReader(bytes.Clone(n.data))}, nil
}

func (m *MemFS) mkdir(name string, perm fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mkdirLocked(name, perm)
}

func (m *MemFS) mkdirLocked(name string, perm fs.FileMode) error {
	dir, real, err := m.parent("mkdir", name)
	if err != nil {
		return err
	}
	base := filepath.Base(real)
	if _, ok := dir.child(base); ok || real == string(filepath.Separator) {
		return &fs.PathError{Op: "mkdir", Path: name, Err: syscall.EEXIST}
	}
	m.add(dir, base, &memNode{mode: fs.ModeDir | perm&permBits})
	return nil
}

func (m *MemFS) mkdirAll(name string, perm fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mkdirAllLocked(name, perm)
}

// mkdirAllLocked is os.MkdirAll's algorithm: done if name is a directory,
// else make the parent, then name, accepting a directory that appeared.
func (m *MemFS) mkdirAllLocked(name string, perm fs.FileMode) error {
	if n, _, err := m.node("mkdir", name, true); err == nil {
		if n.isDir() {
			return nil
		}
		return &fs.PathError{Op: "mkdir", Path: name, Err: syscall.ENOTDIR}
	}
	if parent := filepath.Dir(name); parent != name {
		if err := m.mkdirAllLocked(parent, perm); err != nil {
			return err
		}
	}
	if err := m.mkdirLocked(name, perm); err != nil {
		if n, _, lerr := m.node("lstat", name, false); lerr == nil && n.isDir() {
			return nil
		}
		return err
	}
	return nil
}

func (m *MemFS) chmod(name string, mode fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, _, err := m.node("chmod", name, true)
	if err != nil {
		return err
	}
	n.mode = n.mode.Type() | mode&permBits
	return nil
}

// writeFile replaces an existing file's data, keeping its mode, or
// creates the file with perm, through a dangling symlink too, as
// os.WriteFile does.
func (m *MemFS) writeFile(name string, data []byte, perm fs.FileMode) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	p := name
	for range maxSymlinks {
		if strings.HasSuffix(p, string(filepath.Separator)) {
			// Creating with a trailing slash (a link to "x/") is EISDIR
			// before the last name is looked up, as Linux's open does.
			return &fs.PathError{Op: "open", Path: name, Err: syscall.EISDIR}
		}
		n, real, err := m.node("open", p, false) // the last name: one link at a time
		switch {
		case err == nil && n.mode&fs.ModeSymlink != 0:
			if p = n.target; !filepath.IsAbs(p) {
				p = filepath.Dir(real) + string(filepath.Separator) + p // ".." stays physical
			}
			continue
		case err == nil && n.isDir():
			return &fs.PathError{Op: "open", Path: name, Err: syscall.EISDIR}
		case err == nil:
			n.data, n.modTime = bytes.Clone(data), m.clock.Now()
			return nil
		case !errors.Is(err, fs.ErrNotExist):
			return pathError("open", name, err)
		}
		dir, real, err := m.parent("open", p)
		if err != nil {
			return pathError("open", name, err)
		}
		m.add(dir, filepath.Base(real), &memNode{mode: perm & permBits, data: bytes.Clone(data)})
		return nil
	}
	return &fs.PathError{Op: "open", Path: name, Err: syscall.ELOOP}
}

func (m *MemFS) symlink(target, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	dir, real, err := m.parent("symlink", name)
	if err != nil {
		return &os.LinkError{Op: "symlink", Old: target, New: name, Err: unwrapErrno(err)}
	}
	if _, ok := dir.child(filepath.Base(real)); ok {
		return &os.LinkError{Op: "symlink", Old: target, New: name, Err: syscall.EEXIST}
	}
	m.add(dir, filepath.Base(real), &memNode{mode: fs.ModeSymlink | 0o777, target: target})
	return nil
}

func (m *MemFS) remove(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	dir, real, err := m.parent("remove", name)
	if err != nil {
		return err
	}
	n, ok := dir.child(filepath.Base(real))
	switch {
	case !ok:
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.ENOENT}
	case len(n.entries) > 0:
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.ENOTEMPTY}
	}
	m.drop(dir, filepath.Base(real))
	return nil
}

// removeAll follows os.RemoveAll: a missing parent is success, a parent
// that runs through a file is its open error.
func (m *MemFS) removeAll(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if name == string(filepath.Separator) {
		return &fs.PathError{Op: "unlinkat", Path: name, Err: syscall.EINVAL}
	}
	dirName := filepath.Dir(name)
	dir, _, err := m.node("open", dirName, true)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !dir.isDir() {
		return &fs.PathError{Op: "unlinkat", Path: name, Err: syscall.ENOTDIR}
	}
	m.drop(dir, filepath.Base(name))
	return nil
}

// rename follows os.Rename on Linux: an existing directory is never
// replaced (EEXIST, as Go refuses it before calling rename(2)), a
// directory may not replace a file nor move below itself, and renaming a
// node onto itself does nothing.
func (m *MemFS) rename(from, to string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	fail := func(err error) error {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: unwrapErrno(err)}
	}
	var src, dst *memNode
	sdir, sreal, serr := m.parent("rename", from)
	if serr == nil {
		src, _ = sdir.child(filepath.Base(sreal))
	}
	ddir, dreal, derr := m.parent("rename", to)
	if derr == nil {
		dst, _ = ddir.child(filepath.Base(dreal))
	}
	if serr == nil && src == nil {
		serr = syscall.ENOENT
	}
	switch {
	case dst != nil && dst.isDir() && serr != nil:
		return fail(serr) // Go's lstat of the old name
	case dst != nil && dst.isDir() && (from == to || dst != src):
		return fail(syscall.EEXIST)
	case serr != nil && src == nil && sdir == nil:
		return fail(serr) // rename(2): the old parent first,
	case derr != nil:
		return fail(derr) // then the new parent,
	case serr != nil:
		return fail(serr) // then the old name itself
	case dst == src:
		return nil
	case src.isDir() && within(sreal, dreal, false):
		return fail(syscall.EINVAL)
	case src.isDir() && dst != nil:
		return fail(syscall.ENOTDIR)
	}
	m.drop(sdir, filepath.Base(sreal))
	ddir.setChild(filepath.Base(dreal), src)
	ddir.modTime = m.clock.Now()
	return nil
}

// add links a new node into dir, stamping both with the clock.
func (m *MemFS) add(dir *memNode, name string, n *memNode) {
	now := m.clock.Now()
	n.modTime, dir.modTime = now, now
	dir.setChild(name, n)
}

func (m *MemFS) drop(dir *memNode, name string) {
	dir.removeChild(name)
	dir.modTime = m.clock.Now()
}

// unwrapErrno returns the errno inside a *fs.PathError.
func unwrapErrno(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// memFile is an open MemFS file: a copy of the data at open time. Reading
// a directory fails with EISDIR, as on disk.
type memFile struct {
	name string
	dir  bool
	r    *bytes.Reader
}

func (f *memFile) Read(p []byte) (int, error) {
	if f.dir {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: syscall.EISDIR}
	}
	return f.r.Read(p)
}

func (f *memFile) Seek(offset int64, whence int) (int64, error) {
	if offset < 0 && whence == io.SeekStart {
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: syscall.EINVAL}
	}
	return f.r.Seek(offset, whence)
}

func (f *memFile) Close() error { return nil }
