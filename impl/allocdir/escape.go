package allocdir

import (
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// maxSymlinks bounds symlink resolution, as Linux does.
const maxSymlinks = 40

// linkReader is what the resolver needs from a storage. lmode, the mode
// lstat would report (only the mode: a MemFS then builds no FileInfo), is
// only called on paths whose parent is already resolved.
type linkReader interface {
	lmode(name string) (fs.FileMode, error)
	readlink(name string) (string, error)
}

// resolve returns name (absolute, clean) with every symlink, the last one
// included, replaced by its target, like filepath.EvalSymlinks but over any
// storage so that both storages agree. A ".." pops the resolved prefix,
// which is the physical parent as every link before it is resolved. A
// missing component is lstat's error (fs.ErrNotExist), a non-directory
// followed by a separator ENOTDIR, more than maxSymlinks links ELOOP.
func resolve(l linkReader, name string) (string, error) {
	const sep = string(filepath.Separator)
	resolved, todo, links := sep, name, 0
	for todo != "" {
		// off is where c starts in name while todo is still a suffix of
		// name (no link replaced it yet), else -1.
		off := -1
		if len(todo) <= len(name) && name[len(name)-len(todo):] == todo {
			off = len(name) - len(todo)
		}
		var c string
		var more bool // a separator follows c, if only a trailing one
		c, todo, more = strings.Cut(todo, sep)
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		// resolved is clean and absolute, c one plain element: joining
		// them needs no Clean (filepath.Join's cost here), and when
		// name spells that join itself (a clean path, the usual case)
		// the join is a prefix of name, with nothing to allocate.
		var next string
		switch {
		case off == 1 && resolved == sep && name[:1] == sep,
			off > 1 && resolved != sep && name[off-1:off] == sep && name[:off-1] == resolved:
			next = name[:off+len(c)]
		case resolved == sep:
			next = sep + c
		default:
			next = resolved + sep + c
		}
		mode, err := l.lmode(next)
		if err != nil {
			return "", err
		}
		if mode&fs.ModeSymlink == 0 {
			if !mode.IsDir() && more {
				// The kernel needs a directory here, even before "..".
				return "", &fs.PathError{Op: "lstat", Path: next, Err: syscall.ENOTDIR}
			}
			resolved = next
			continue
		}
		if links++; links > maxSymlinks {
			return "", &fs.PathError{Op: "resolve", Path: name, Err: syscall.ELOOP}
		}
		target, err := l.readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			resolved = sep
		}
		if more { // a trailing separator still asks for a directory
			target += sep + todo
		}
		todo = target
	}
	return resolved, nil
}

// within reports whether p is base or below it. fold makes the comparison
// case-insensitive (ADIR-4's symlink check); the lexical check is exact.
func within(base, p string, fold bool) bool {
	if len(p) < len(base) {
		return false
	}
	if head := p[:len(base)]; head != base && (!fold || !strings.EqualFold(head, base)) {
		return false
	}
	return len(p) == len(base) || strings.HasSuffix(base, string(filepath.Separator)) ||
		p[len(base)] == filepath.Separator
}

// hasPrefixFold is ADIR-4's case-insensitive string prefix for the secrets
// and private dirs (no separator boundary: "secretsX" is refused too).
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// target is a checked FS path.
type target struct {
	abs   string // the alloc dir joined with the path as given, cleaned
	real  string // abs with symlinks resolved (abs if it does not exist)
	inner string // real re-rooted at AllocDirPath (for the secrets check)
}

// confine runs ADIR-4's escape check on an alloc-dir-relative path.
func (a *AllocDir) confine(path string) (target, error) {
	abs := filepath.Join(a.dir, path)
	if !within(a.dir, abs, false) {
		return target{}, ErrPathEscapes
	}
	real, err := a.store.resolve(abs)
	if isNotExist(err) {
		return target{abs: abs, real: abs, inner: abs}, nil
	}
	if err != nil {
		return target{}, fmt.Errorf(MsgEscapeCheckFailed, err)
	}
	base := a.dir
	if b, err := a.store.resolve(a.dir); err == nil {
		base = b
	}
	if !within(base, real, true) {
		return target{}, ErrPathEscapes
	}
	return target{abs: abs, real: real, inner: a.dir + real[len(base):]}, nil
}

// confineWrite checks a path a Writer method is about to create or
// remove: the path lexically, each existing ancestor through its symlinks
// (a missing path passes ADIR-4 even below a link that points outside) and,
// when followLast, the path itself.
func (a *AllocDir) confineWrite(path string, followLast bool) (target, error) {
	abs := filepath.Join(a.dir, path)
	if !within(a.dir, abs, false) {
		return target{}, ErrPathEscapes
	}
	for dir := filepath.Dir(abs); within(a.dir, dir, false); dir = filepath.Dir(dir) {
		if _, err := a.confine(dir[len(a.dir):]); err != nil {
			return target{}, err
		}
	}
	if followLast {
		return a.confine(path)
	}
	return target{abs: abs, real: abs, inner: abs}, nil
}

// readProhibited is ADIR-4's ReadAt refusal of secrets and private files.
// path is echoed as given.
func (a *AllocDir) readProhibited(path string, t target) error {
	a.mu.Lock()
	dirs := make([]*interfaces.TaskDir, 0, len(a.tasks))
	for _, name := range slices.Sorted(maps.Keys(a.tasks)) {
		dirs = append(dirs, a.tasks[name])
	}
	a.mu.Unlock()
	for _, p := range []string{t.abs, t.inner} {
		for _, td := range dirs {
			if hasPrefixFold(p, td.SecretsDir) {
				return fmt.Errorf(MsgSecretProhibited, path)
			}
			if hasPrefixFold(p, td.PrivateDir) {
				return fmt.Errorf(MsgPrivateProhibited, path)
			}
		}
	}
	return nil
}
