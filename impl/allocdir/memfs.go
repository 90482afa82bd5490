package allocdir

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/benbjohnson/clock"
)

// MemFS is an in-memory file tree of directories, regular files and
// symlinks, the storage of NewMem alloc dirs. Modification times come from
// its clock. Errors mirror the os package's (*fs.PathError or *os.LinkError
// around the same syscall.Errno), so messages match the disk's; a property
// test holds it to that against real files. There are no owners,
// permission checks, hard links or umask, directories have size 0, and a
// reader sees the file as it was when opened. Safe for concurrent use.
type MemFS struct {
	clock clock.Clock

	mu   sync.Mutex
	root *memNode
}

var _ storage = (*MemFS)(nil)

// memNode is a directory (mode.IsDir(); entries), a file (data) or a
// symlink (target); mode carries the type bits.
type memNode struct {
	mode    fs.FileMode
	modTime time.Time
	data    []byte
	target  string
	// entries are a directory's children sorted by name, nil when there
	// are none: a slice, not a map, as most directories of an alloc dir
	// hold a few entries or none (an empty map and its table were a
	// tenth of the objects a 100-client cluster run keeps live).
	entries []memEntry
}

// memEntry is one child of a directory.
type memEntry struct {
	name string
	node *memNode
}

func (n *memNode) isDir() bool { return n.mode.IsDir() }

// find returns where name is, or would be inserted, among n's entries.
func (n *memNode) find(name string) (int, bool) {
	return slices.BinarySearchFunc(n.entries, name, func(e memEntry, name string) int { return strings.Compare(e.name, name) })
}

// child returns n's entry name.
func (n *memNode) child(name string) (*memNode, bool) {
	if i, ok := n.find(name); ok {
		return n.entries[i].node, true
	}
	return nil, false
}

// setChild makes c n's entry name, replacing any.
func (n *memNode) setChild(name string, c *memNode) {
	i, ok := n.find(name)
	if ok {
		n.entries[i].node = c
		return
	}
	n.entries = slices.Insert(n.entries, i, memEntry{name: name, node: c})
}

// removeChild removes n's entry name, if any.
func (n *memNode) removeChild(name string) {
	if i, ok := n.find(name); ok {
		n.entries = slices.Delete(n.entries, i, i+1)
	}
}

// NewMemFS returns an empty tree (only "/", 0755) on clk. clk is required:
// NewMemFS panics when it is nil, a wiring mistake.
func NewMemFS(clk clock.Clock) *MemFS {
	if clk == nil {
		panic("allocdir: NewMemFS: clock is nil")
	}
	return &MemFS{clock: clk, root: &memNode{mode: fs.ModeDir | 0o755, modTime: clk.Now()}}
}

// memView is the locked tree as the resolver sees it: lookups whose parent
// is already resolved, with os-like errors naming the looked-up path. It
// remembers the last directory it found, so that resolving a path looks
// each element up in its parent instead of walking from the root again
// for every element (the walks were 2.4 % of a conformance check's CPU).
// A view lives for one resolution, with m.mu held: the tree cannot change
// under it.
type memView struct {
	m    *MemFS
	dir  string   // the last directory looked up ("" none)
	node *memNode // its node
}

// lookup is walk(name), from the remembered directory when it is name's
// parent.
func (v *memView) lookup(name string) (*memNode, error) {
	const sep = filepath.Separator
	if v.node != nil {
		if i := strings.LastIndexByte(name, sep); i >= 0 && name[i+1:] != "" &&
			(i == 0 && v.dir == string(sep) || name[:i] == v.dir) {
			child, ok := v.node.child(name[i+1:])
			if !ok {
				return nil, syscall.ENOENT
			}
			v.remember(name, child)
			return child, nil
		}
	}
	n, err := v.m.walk(name)
	if err == nil {
		v.remember(name, n)
	}
	return n, err
}

// remember keeps n as the directory for the next lookup when it is one.
func (v *memView) remember(name string, n *memNode) {
	if n.isDir() {
		v.dir, v.node = name, n
	}
}

func (v *memView) lmode(name string) (fs.FileMode, error) {
	n, err := v.lookup(name)
	if err != nil {
		return 0, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	return n.mode, nil
}

func (v *memView) readlink(name string) (string, error) {
	n, err := v.lookup(name)
	if err == nil && n.mode&fs.ModeSymlink == 0 {
		err = syscall.EINVAL
	}
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: err}
	}
	return n.target, nil
}

// walk finds a node by a path without symlinks before its last element.
// m.mu is held.
func (m *MemFS) walk(name string) (*memNode, error) {
	n := m.root
	for c := range strings.SplitSeq(name, string(filepath.Separator)) {
		if c == "" {
			continue
		}
		if !n.isDir() {
			return nil, syscall.ENOTDIR
		}
		child, ok := n.child(c)
		if !ok {
			return nil, syscall.ENOENT
		}
		n = child
	}
	return n, nil
}

// resolveLocked resolves the symlinks of name, the last element's only
// when follow is set. name need not be clean: ".." is taken physically.
// m.mu is held.
func (m *MemFS) resolveLocked(name string, follow bool) (string, error) {
	const sep = string(filepath.Separator)
	trimmed := strings.TrimRight(name, sep)
	i := strings.LastIndex(trimmed, sep)
	if follow || i < 0 || trimmed[i+1:] == "." || trimmed[i+1:] == ".." {
		return resolve(&memView{m: m}, name)
	}
	dir, err := resolve(&memView{m: m}, trimmed[:i+1])
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, trimmed[i+1:]), nil
}

// node returns the node of name and its resolved path; errors are
// *fs.PathError{op, name}. m.mu is held.
func (m *MemFS) node(op, name string, follow bool) (*memNode, string, error) {
	real, err := m.resolveLocked(name, follow)
	if err != nil {
		return nil, "", pathError(op, name, err)
	}
	n, err := m.walk(real)
	if err != nil {
		return nil, real, pathError(op, name, err)
	}
	return n, real, nil
}

// parent returns the directory that holds (or would hold) name, the
// resolved path of name (last element not followed) and that element.
// m.mu is held.
func (m *MemFS) parent(op, name string) (*memNode, string, error) {
	real, err := m.resolveLocked(name, false)
	if err != nil {
		return nil, "", pathError(op, name, err)
	}
	dir, err := m.walk(filepath.Dir(real))
	if err == nil && !dir.isDir() {
		err = syscall.ENOTDIR
	}
	if err != nil {
		return nil, "", pathError(op, name, err)
	}
	return dir, real, nil
}

// pathError names op and name around the errno of err, as the os package
// does whatever component failed.
func pathError(op, name string, err error) error {
	return &fs.PathError{Op: op, Path: name, Err: unwrapErrno(err)}
}

func (n *memNode) info(name string) memInfo {
	size := int64(len(n.data))
	if n.mode&fs.ModeSymlink != 0 {
		size = int64(len(n.target))
	}
	return memInfo{name: name, size: size, mode: n.mode, modTime: n.modTime}
}

// memInfo is a MemFS fs.FileInfo; Sys is nil and directories have size 0.
type memInfo struct {
	name    string
	size    int64
	mode    fs.FileMode
	modTime time.Time
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return i.mode }
func (i memInfo) ModTime() time.Time { return i.modTime }
func (i memInfo) IsDir() bool        { return i.mode.IsDir() }
func (i memInfo) Sys() any           { return nil }
