package allocdirtest

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/interfaces"
)

// Deliberately broken alloc dirs: each wraps a correct on-disk AllocDir
// and gets one thing wrong, the way a careless third implementation would.

// osInfo describes a disk file the way AllocDir does, minus ContentType.
func osInfo(info fs.FileInfo) *interfaces.AllocFileInfo {
	return &interfaces.AllocFileInfo{Name: info.Name(), IsDir: info.IsDir(), Size: info.Size(),
		FileMode: info.Mode().String(), ModTime: info.ModTime()}
}

func osStat(abs string) (*interfaces.AllocFileInfo, error) {
	info, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	return osInfo(info), nil
}

func osList(abs string) ([]*interfaces.AllocFileInfo, error) {
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, err
	}
	var out []*interfaces.AllocFileInfo
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		out = append(out, osInfo(info))
	}
	return out, nil
}

func osReadAt(abs string, offset int64) (io.ReadCloser, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, err
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// noEscapeCheck serves paths straight from the OS.
type noEscapeCheck struct{ *allocdir.AllocDir }

func (m noEscapeCheck) abs(p string) string { return filepath.Join(m.AllocDirPath(), p) }
func (m noEscapeCheck) Stat(p string) (*interfaces.AllocFileInfo, error) {
	return osStat(m.abs(p))
}
func (m noEscapeCheck) List(p string) ([]*interfaces.AllocFileInfo, error) { return osList(m.abs(p)) }
func (m noEscapeCheck) ReadAt(p string, off int64) (io.ReadCloser, error) {
	return osReadAt(m.abs(p), off)
}

// lexicalOnly checks only the cleaned path, never symlinks.
type lexicalOnly struct{ noEscapeCheck }

func (m lexicalOnly) check(p string) error {
	if rel, _ := filepath.Rel(m.AllocDirPath(), m.abs(p)); rel == ".." || strings.HasPrefix(rel, "../") {
		return allocdir.ErrPathEscapes
	}
	return nil
}

func (m lexicalOnly) Stat(p string) (*interfaces.AllocFileInfo, error) {
	if err := m.check(p); err != nil {
		return nil, err
	}
	return m.noEscapeCheck.Stat(p)
}

func (m lexicalOnly) ReadAt(p string, off int64) (io.ReadCloser, error) {
	if err := m.check(p); err != nil {
		return nil, err
	}
	return m.noEscapeCheck.ReadAt(p, off)
}

// prefixOnly resolves symlinks but compares with a bare string prefix and
// lets every resolution failure pass.
type prefixOnly struct{ noEscapeCheck }

func (m prefixOnly) ReadAt(p string, off int64) (io.ReadCloser, error) {
	abs := m.abs(p)
	if !strings.HasPrefix(abs, m.AllocDirPath()) {
		return nil, allocdir.ErrPathEscapes
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil && !strings.HasPrefix(real, m.AllocDirPath()) {
		return nil, allocdir.ErrPathEscapes
	}
	return osReadAt(abs, off)
}

// noSecretsCheck checks escapes but reads secrets and private files.
type noSecretsCheck struct{ *allocdir.AllocDir }

func (m noSecretsCheck) ReadAt(p string, off int64) (io.ReadCloser, error) {
	if _, err := m.AllocDir.Stat(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return osReadAt(filepath.Join(m.AllocDirPath(), p), off)
}

// caseSensitiveSecrets refuses only the lower-case spelling.
type caseSensitiveSecrets struct{ noSecretsCheck }

func (m caseSensitiveSecrets) ReadAt(p string, off int64) (io.ReadCloser, error) {
	if strings.Contains(p, "secrets") || strings.Contains(p, "private") {
		return m.AllocDir.ReadAt(p, off)
	}
	return m.noSecretsCheck.ReadAt(p, off)
}

// plainTmp builds task tmp dirs without the sticky bit.
type plainTmp struct{ *allocdir.AllocDir }

func (m plainTmp) NewTaskDir(task string) *interfaces.TaskDir {
	m.AllocDir.NewTaskDir(task)
	return allocdir.NewTaskDirLayout(m.AllocDirPath(), task, func(p string, mode fs.FileMode) error {
		if err := os.Mkdir(p, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		return os.Chmod(p, mode&^fs.ModeSticky)
	})
}

// unsortedList lists in reverse order.
type unsortedList struct{ *allocdir.AllocDir }

func (m unsortedList) List(p string) ([]*interfaces.AllocFileInfo, error) {
	infos, err := m.AllocDir.List(p)
	slices.Reverse(infos)
	return infos, err
}

// jsonSniffed ignores the .json rule.
type jsonSniffed struct{ *allocdir.AllocDir }

func (m jsonSniffed) Stat(p string) (*interfaces.AllocFileInfo, error) {
	fi, err := m.AllocDir.Stat(p)
	if err == nil && fi.ContentType == allocdir.ContentTypeJSON {
		fi.ContentType = "text/plain; charset=utf-8"
	}
	return fi, err
}

// offsetIgnored always reads from the start.
type offsetIgnored struct{ *allocdir.AllocDir }

func (m offsetIgnored) ReadAt(p string, _ int64) (io.ReadCloser, error) {
	return m.AllocDir.ReadAt(p, 0)
}

// destroyNothing forgets to remove the tree.
type destroyNothing struct{ *allocdir.AllocDir }

func (destroyNothing) Destroy() error { return nil }

// moveUnbuilt builds the receiver instead of refusing the move.
type moveUnbuilt struct{ *allocdir.AllocDir }

func (m moveUnbuilt) Move(other interfaces.AllocDir, tasks []string) error {
	if err := m.Build(); err != nil {
		return err
	}
	return m.AllocDir.Move(other, tasks)
}

// silentSnapshot swallows the walk error.
type silentSnapshot struct{ *allocdir.AllocDir }

func (m silentSnapshot) Snapshot(w io.Writer) error {
	_ = m.AllocDir.Snapshot(w)
	return nil
}

// neverExists waits for cancellation only.
type neverExists struct{ *allocdir.AllocDir }

func (neverExists) BlockUntilExists(ctx context.Context, _ string) (chan error, error) {
	ch := make(chan error, 1)
	go func() {
		<-ctx.Done()
		close(ch)
	}()
	return ch, nil
}

// eagerExists says the path exists at once.
type eagerExists struct{ *allocdir.AllocDir }

func (eagerExists) BlockUntilExists(context.Context, string) (chan error, error) {
	ch := make(chan error, 1)
	ch <- nil
	close(ch)
	return ch, nil
}

// deafChanges never notifies.
type deafChanges struct{ *allocdir.AllocDir }

func (m deafChanges) ChangeEvents(ctx context.Context, p string, off int64) (*interfaces.FileChanges, error) {
	if _, err := m.AllocDir.ChangeEvents(ctx, p, off); err != nil {
		return nil, err
	}
	return &interfaces.FileChanges{Modified: make(chan struct{}), Truncated: make(chan struct{}), Deleted: make(chan struct{})}, nil
}

// nilResults answers every query with nothing: the suite must report, not
// panic.
type nilResults struct{ *allocdir.AllocDir }

func (nilResults) NewTaskDir(string) *interfaces.TaskDir          { return nil }
func (nilResults) Stat(string) (*interfaces.AllocFileInfo, error) { return nil, nil }
func (nilResults) List(string) ([]*interfaces.AllocFileInfo, error) {
	return []*interfaces.AllocFileInfo{nil}, nil
}
func (nilResults) ReadAt(string, int64) (io.ReadCloser, error)                  { return nil, nil }
func (nilResults) BlockUntilExists(context.Context, string) (chan error, error) { return nil, nil }
func (nilResults) ChangeEvents(context.Context, string, int64) (*interfaces.FileChanges, error) {
	return nil, nil
}

// noWriter hides the fixture Writer.
type noWriter struct{ interfaces.AllocDir }

// buildFails cannot build.
type buildFails struct{ *allocdir.AllocDir }

func (buildFails) Build() error { return errors.New("no space left on device") }
