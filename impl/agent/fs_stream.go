package agent

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"strconv"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// frameSize bounds the data of one StreamFrame (and of one plain write).
const frameSize = 64 << 10

// Content types of the alloc dir bodies.
const (
	contentTypePlain  = "text/plain; charset=utf-8"
	contentTypeFrames = "application/json"
)

// streamReply is a reply that writes its own body once the endpoint has
// accepted the request: writeReply sends the API-1 headers and status 200,
// then calls body, which may run until the request's context is done.
// flush pushes what was written to the client.
type streamReply struct {
	contentType string
	body        func(w io.Writer, flush func())
}

// writeStream serves a streamReply: the success headers of writeReply
// without a Content-Length, the status, then the body.
func writeStream(w http.ResponseWriter, s streamReply, index uint64) {
	h := w.Header()
	h.Set(headerIndex, strconv.FormatUint(max(index, 1), 10))
	h.Set(headerLastContact, "0")
	h.Set(headerKnownLeader, "true")
	h.Set("Content-Type", s.contentType)
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	flush := func() { _ = rc.Flush() } // unsupported (in memory): written at the end anyway
	flush()
	s.body(w, flush)
}

// copyReply streams rc (limit bytes, all when limit <= 0) as text/plain
// and closes it.
func copyReply(rc io.ReadCloser, limit int64) streamReply {
	return streamReply{contentType: contentTypePlain, body: func(w io.Writer, _ func()) {
		defer rc.Close()
		var src io.Reader = rc
		if limit > 0 {
			src = io.LimitReader(rc, limit)
		}
		_, _ = io.Copy(w, src)
	}}
}

// frameWriter writes file data as a sequence of api.StreamFrame JSON
// objects (Data base64, Offset the file offset just past the data, File
// the alloc-dir-relative path), or as the bare bytes when plain, where
// file events are dropped.
type frameWriter struct {
	w     io.Writer
	enc   *json.Encoder
	plain bool
	flush func()
}

func newFrameWriter(w io.Writer, flush func(), plain bool) *frameWriter {
	return &frameWriter{w: w, enc: json.NewEncoder(w), plain: plain, flush: flush}
}

func (f *frameWriter) data(file string, p []byte, end int64) error {
	if f.plain {
		_, err := f.w.Write(p)
		return err
	}
	return f.enc.Encode(api.StreamFrame{File: file, Data: p, Offset: end})
}

func (f *frameWriter) event(file, event string, offset int64) error {
	if f.plain {
		return nil
	}
	return f.enc.Encode(api.StreamFrame{File: file, FileEvent: event, Offset: offset})
}

// tailer sends alloc dir files to a frameWriter and, following, waits for
// them to change. It starts no goroutine of its own: the alloc dir's
// watchers (polling on the alloc dir's clock) run under contexts derived
// from ctx that the tailer cancels when it is done with them.
type tailer struct {
	ctx  context.Context // the request's: done when the client goes away
	dir  interfaces.AllocDir
	out  *frameWriter
	stop <-chan struct{} // the runner's ShutdownCh
	buf  []byte
}

func newTailer(ctx context.Context, ar interfaces.AllocRunner, dir interfaces.AllocDir, out *frameWriter) *tailer {
	return &tailer{ctx: ctx, dir: dir, out: out, stop: ar.ShutdownCh(), buf: make([]byte, frameSize)}
}

// drain sends path from offset to its current end and returns the offset
// reached. A file now shorter than offset was truncated: a
// FileEventTruncated frame, then from 0. A file that is gone gets a
// FileEventDeleted frame and gone.
func (t *tailer) drain(path string, offset int64) (end int64, gone bool, err error) {
	defer t.out.flush()
	info, err := t.dir.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return offset, true, t.out.event(path, FileEventDeleted, offset)
	}
	if err != nil {
		return offset, false, err
	}
	if info.Size < offset {
		offset = 0
		if err := t.out.event(path, FileEventTruncated, offset); err != nil {
			return offset, false, err
		}
	}
	rc, err := t.dir.ReadAt(path, offset)
	if errors.Is(err, fs.ErrNotExist) {
		return offset, true, t.out.event(path, FileEventDeleted, offset)
	}
	if err != nil {
		return offset, false, err
	}
	defer rc.Close()
	for {
		n, rerr := io.ReadFull(rc, t.buf)
		if n > 0 {
			offset += int64(n)
			if err := t.out.data(path, t.buf[:n], offset); err != nil {
				return offset, false, err
			}
		}
		switch {
		case rerr == io.EOF || errors.Is(rerr, io.ErrUnexpectedEOF):
			return offset, false, nil
		case rerr != nil:
			return offset, false, rerr
		}
	}
}

// watch is what a follower waits on for one file: its changes and,
// for logs, the appearance of the next file.
type watch struct {
	cancel  context.CancelFunc
	changes *interfaces.FileChanges // nil: the file could not be watched
	next    <-chan error            // nil: no next file to wait for
}

// watch starts the alloc dir's watchers of path (if not empty) from
// offset and of next's existence (if not empty). Stop them with close.
func (t *tailer) watch(path string, offset int64, next string) *watch {
	ctx, cancel := context.WithCancel(t.ctx)
	w := &watch{cancel: cancel}
	if path != "" {
		if ch, err := t.dir.ChangeEvents(ctx, path, offset); err == nil {
			w.changes = ch
		}
	}
	if next != "" {
		if ch, err := t.dir.BlockUntilExists(ctx, next); err == nil {
			w.next = ch
		}
	}
	return w
}

func (w *watch) close() {
	if w != nil {
		w.cancel()
	}
}

// wake is why a follower's wait ended.
type wake int

const (
	wakeChanged wake = iota // the file changed (or may have): drain it
	wakeNext                // the next file exists
	wakeDead                // the task is dead: drain what is left, then end
	wakeStop                // the client went away or the runner shut down
)

// wait blocks until the watched file changes, the next file appears, the
// task of updates (nil: none) is seen dead by dead (or updates closes),
// the request ends or the runner shuts down.
func (t *tailer) wait(w *watch, updates <-chan *structs.Allocation, dead func(*structs.Allocation) bool) wake {
	var mod, trunc, del <-chan struct{}
	if w.changes != nil {
		mod, trunc, del = w.changes.Modified, w.changes.Truncated, w.changes.Deleted
	}
	for {
		select {
		case <-t.ctx.Done():
			return wakeStop
		case <-t.stop:
			return wakeStop
		case <-mod:
			return wakeChanged
		case <-trunc:
			return wakeChanged
		case <-del:
			return wakeChanged
		case <-w.next:
			w.next = nil
			return wakeNext
		case a, ok := <-updates:
			if !ok || dead(a) {
				return wakeDead
			}
		}
	}
}
