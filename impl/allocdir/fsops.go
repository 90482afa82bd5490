package allocdir

import (
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// sniffLen is how much of a file Stat gives http.DetectContentType.
const sniffLen = 512

// List implements interfaces.AllocDir (ADIR-5).
func (a *AllocDir) List(path string) ([]*interfaces.AllocFileInfo, error) {
	t, err := a.confine(path)
	if err != nil {
		return nil, err
	}
	infos, err := a.store.readDir(t.real)
	if err != nil {
		return nil, err
	}
	out := make([]*interfaces.AllocFileInfo, 0, len(infos))
	for _, info := range infos {
		out = append(out, fileInfo(info.Name(), info))
	}
	return out, nil
}

// Stat implements interfaces.AllocDir (ADIR-5). It follows symlinks, like os.Stat;
// Name is the last element of the path as given.
func (a *AllocDir) Stat(path string) (*interfaces.AllocFileInfo, error) {
	t, err := a.confine(path)
	if err != nil {
		return nil, err
	}
	info, err := a.store.stat(t.real)
	if err != nil {
		return nil, err
	}
	fi := fileInfo(filepath.Base(t.abs), info)
	fi.ContentType = a.contentType(t, info)
	return fi, nil
}

func fileInfo(name string, info fs.FileInfo) *interfaces.AllocFileInfo {
	return &interfaces.AllocFileInfo{
		Name:     name,
		IsDir:    info.IsDir(),
		Size:     info.Size(),
		FileMode: info.Mode().String(),
		ModTime:  info.ModTime(),
	}
}

// Content types of Stat (ADIR-5).
const (
	ContentTypeOctetStream = "application/octet-stream"
	ContentTypeJSON        = "application/json"
)

// contentType is ADIR-5's rule, in this order: directories, the .json
// suffix (of the path as given), then the first 512 bytes; unreadable or
// empty files are application/octet-stream.
func (a *AllocDir) contentType(t target, info fs.FileInfo) string {
	if info.IsDir() {
		return ContentTypeOctetStream
	}
	if strings.HasSuffix(t.abs, ".json") {
		return ContentTypeJSON
	}
	f, err := a.store.open(t.real)
	if err != nil {
		return ContentTypeOctetStream
	}
	defer f.Close()
	buf := make([]byte, sniffLen)
	n, err := io.ReadFull(f, buf)
	if n == 0 || (err != nil && err != io.ErrUnexpectedEOF) {
		return ContentTypeOctetStream
	}
	return http.DetectContentType(buf[:n])
}

// ReadAt implements interfaces.AllocDir (ADIR-4, ADIR-5).
func (a *AllocDir) ReadAt(path string, offset int64) (io.ReadCloser, error) {
	t, err := a.confine(path)
	if err != nil {
		return nil, err
	}
	if err := a.readProhibited(path, t); err != nil {
		return nil, err
	}
	f, err := a.store.open(t.real)
	if err != nil {
		return nil, err
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf(MsgSeek, offset, err)
	}
	return f, nil
}
