package allocdir

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"time"
)

// The ERROR.log entry a failed Snapshot appends (ADIR-5): its content
// MsgSnapshotErrorLog, its name SnapshotErrorLogName (%s is the alloc ID),
// its mode and its times.
const (
	MsgSnapshotErrorLog  = "Error snapshotting: %v"
	SnapshotErrorLogName = "NOMAD-%s-ERROR.log"
	errorLogMode         = 0o666
)

// SnapshotErrorTime is the access, change and modification time of the
// ERROR.log entry: Go's time.Date(2000, 0, 0, ...), 1999-11-30T00:00:00Z
// (ADIR-5).
var SnapshotErrorTime = time.Date(2000, 0, 0, 0, 0, 0, 0, time.UTC)

// Snapshot implements interfaces.AllocDir (ADIR-5): a tar of alloc/data, then each
// registered task's local dir in task name order, each walked lexically
// without following symlinks. Entry names are relative to the alloc dir;
// directories (the roots included) and symlinks are header-only. A root
// that escapes the alloc dir (ADIR-4) fails like a missing one: the first
// failure appends the ERROR.log entry, closes the archive and is returned.
func (a *AllocDir) Snapshot(w io.Writer) error {
	roots := []string{filepath.Join(a.share, DataDirName)}
	a.mu.Lock()
	for _, name := range slices.Sorted(maps.Keys(a.tasks)) {
		roots = append(roots, a.tasks[name].LocalDir)
	}
	a.mu.Unlock()

	tw := tar.NewWriter(w)
	for _, root := range roots {
		if err := a.archiveRoot(tw, root); err != nil {
			failed := fmt.Errorf(MsgSnapshotFailed, root, err)
			return errors.Join(failed, writeErrorLog(tw, a.id, err), tw.Close())
		}
	}
	return tw.Close()
}

func (a *AllocDir) archiveRoot(tw *tar.Writer, root string) error {
	if _, err := a.confine(root[len(a.dir):]); err != nil {
		return err
	}
	return a.archive(tw, root)
}

// archive writes p and, for a directory, its entries in name order.
func (a *AllocDir) archive(tw *tar.Writer, p string) error {
	info, err := a.store.lstat(p)
	if err != nil {
		return err
	}
	link := ""
	if info.Mode()&fs.ModeSymlink != 0 {
		if link, err = a.store.readlink(p); err != nil {
			return err
		}
	}
	hdr, err := tar.FileInfoHeader(info, link)
	if err != nil {
		return err
	}
	if hdr.Name, err = filepath.Rel(a.dir, p); err != nil {
		return err
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	switch {
	case info.IsDir():
		entries, err := a.store.readDir(p)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := a.archive(tw, filepath.Join(p, e.Name())); err != nil {
				return err
			}
		}
	case info.Mode().IsRegular():
		f, err := a.store.open(p)
		if err != nil {
			return err
		}
		_, err = io.Copy(tw, f)
		f.Close()
		return err
	}
	return nil
}

// writeErrorLog appends the NOMAD-<allocID>-ERROR.log entry (ADIR-5).
func writeErrorLog(tw *tar.Writer, allocID string, walkErr error) error {
	body := fmt.Appendf(nil, MsgSnapshotErrorLog, walkErr)
	hdr := &tar.Header{
		Typeflag:   tar.TypeReg,
		Name:       fmt.Sprintf(SnapshotErrorLogName, allocID),
		Mode:       errorLogMode,
		Size:       int64(len(body)),
		ModTime:    SnapshotErrorTime,
		AccessTime: SnapshotErrorTime,
		ChangeTime: SnapshotErrorTime,
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	_, err := tw.Write(body)
	return err
}
