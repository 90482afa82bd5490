package agent

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/allocsim/allocsim/impl/allocdir"
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

// framedReply streams what run writes as StreamFrames (plain: bare
// bytes).
func framedReply(plain bool, run func(out *frameWriter)) streamReply {
	ct := contentTypeFrames
	if plain {
		ct = contentTypePlain
	}
	return streamReply{contentType: ct, body: func(w io.Writer, flush func()) {
		run(newFrameWriter(w, flush, plain))
	}}
}

// StreamFrame FileEvent values.
const (
	FileEventTruncated = "file truncated"
	FileEventDeleted   = "file deleted"
)

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

// logDir is the alloc-dir-relative log dir (ADIR-2), where drivers write
// <task>.<stdout|stderr>.<index>.
var logDir = path.Join(allocdir.SharedAllocName, allocdir.LogDirName)

// logFile is one of a task's log files.
type logFile struct {
	path  string // alloc-dir-relative
	index int
	size  int64
}

// logFiles lists the task's log files of one type by index; a missing log
// dir has none.
func logFiles(dir interfaces.AllocDir, task, typ string) ([]logFile, error) {
	entries, err := dir.List(logDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fsError(err)
	}
	prefix := task + "." + typ + "."
	var out []logFile
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name, prefix)
		if !ok || e.IsDir || rest == "" || strings.Trim(rest, "0123456789") != "" {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil {
			continue
		}
		out = append(out, logFile{path: path.Join(logDir, e.Name), index: n, size: e.Size})
	}
	slices.SortFunc(out, func(a, b logFile) int { return a.index - b.index })
	return out, nil
}

// logStart is where a read of the concatenated files begins: offset bytes
// from the start, or from the end with origin=end, clamped to the files.
func logStart(files []logFile, origin string, offset int64) (int, int64) {
	if origin == originEnd {
		for i := len(files) - 1; i >= 0; i-- {
			if offset <= files[i].size {
				return i, files[i].size - offset
			}
			offset -= files[i].size
		}
		return 0, 0
	}
	for i, f := range files {
		if offset < f.size {
			return i, offset
		}
		offset -= f.size
	}
	last := len(files) - 1
	return last, files[last].size
}

// dead reports whether an alloc says the request's task is dead.
func (l *logRequest) dead(a *structs.Allocation) bool {
	if a == nil {
		return false
	}
	ts := a.TaskStates[l.task]
	return ts != nil && ts.State == structs.TaskStateDead
}

func (l *logRequest) deadNow() bool {
	s := l.ar.AllocState()
	return s != nil && l.dead(&structs.Allocation{TaskStates: s.TaskStates})
}

// run streams the files from the requested start; following, it waits
// at the end of the newest file for more, for the next file or for the
// task's death.
func (l *logRequest) run(t *tailer) {
	var updates <-chan *structs.Allocation
	if l.follow {
		lis := l.ar.Listener()
		defer lis.Close()
		updates = lis.Ch()
	}
	dead := !l.follow || l.deadNow()
	files := l.files
	for len(files) == 0 { // follow only: wait for the first file
		if dead {
			return
		}
		w := t.watch("", 0, path.Join(logDir, l.fileName(0)))
		switch t.wait(w, updates, l.dead) {
		case wakeStop:
			w.close()
			return
		case wakeDead:
			dead = true
		}
		w.close()
		var err error
		if files, err = logFiles(l.dir, l.task, l.typ); err != nil {
			return
		}
	}
	i, offset := logStart(files, l.origin, l.offset)
	cur := files[i]
	var w *watch
	defer func() { w.close() }()
	for {
		var gone bool
		var err error
		if offset, gone, err = t.drain(cur.path, offset); err != nil {
			return
		}
		if next, ok := l.nextFile(cur.index); ok {
			cur, offset = next, 0
			w.close()
			w = nil
			continue
		}
		if gone || dead {
			return
		}
		if w == nil {
			w = t.watch(cur.path, offset, path.Join(logDir, l.fileName(cur.index+1)))
		}
		switch t.wait(w, updates, l.dead) {
		case wakeStop:
			return
		case wakeDead:
			dead = true
		}
	}
}

func (l *logRequest) fileName(index int) string {
	return l.task + "." + l.typ + "." + strconv.Itoa(index)
}

// nextFile is the first log file after index, if there is one now.
func (l *logRequest) nextFile(index int) (logFile, bool) {
	files, err := logFiles(l.dir, l.task, l.typ)
	if err != nil {
		return logFile{}, false
	}
	for _, f := range files {
		if f.index > index {
			return f, true
		}
	}
	return logFile{}, false
}
