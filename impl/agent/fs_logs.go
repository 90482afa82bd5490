package agent

import (
	"errors"
	"fmt"
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
)

// logDir is the alloc-dir-relative log dir (ADIR-2), where drivers write
// <task>.<stdout|stderr>.<index>.
var logDir = path.Join(allocdir.SharedAllocName, allocdir.LogDirName)

// fsStream is GET /v1/client/fs/stream/<alloc>?path=&offset=&origin=
// &follow=&plain=: the file from offset (counted from the end with
// origin=end) in frames (plain: bare bytes); follow (default true) keeps
// sending what is appended, until the file is deleted, the client goes
// away or the runner shuts down.
func (h *Handler) fsStream(r *http.Request) (any, uint64, error) {
	offset, err := queryOffset(r, "offset")
	if err != nil {
		return nil, 0, err
	}
	origin, err := queryOrigin(r)
	if err != nil {
		return nil, 0, err
	}
	follow, err := queryBoolDefault(r, "follow", true)
	if err != nil {
		return nil, 0, err
	}
	plain, err := queryBool(r, "plain")
	if err != nil {
		return nil, 0, err
	}
	f, err := h.statFile(r)
	if err != nil {
		return nil, 0, err
	}
	start := min(offset, f.info.Size)
	if origin == originEnd {
		start = max(f.info.Size-offset, 0)
	}
	if err := probe(f.dir, f.path, start); err != nil {
		return nil, 0, err
	}
	ctx := r.Context()
	return framedReply(plain, func(out *frameWriter) {
		t := newTailer(ctx, f.ar, f.dir, out)
		offset := start
		var w *watch
		defer func() { w.close() }()
		for {
			var gone bool
			var err error
			if offset, gone, err = t.drain(f.path, offset); err != nil || gone || !follow {
				return
			}
			if w == nil {
				w = t.watch(f.path, offset, "")
			}
			if t.wait(w, nil, nil) == wakeStop {
				return
			}
		}
	}), 0, nil
}

// probe opens path at offset and closes it again, so that ADIR-4's
// refusals are the request's error rather than an empty body.
func probe(dir interfaces.AllocDir, p string, offset int64) error {
	rc, err := dir.ReadAt(p, offset)
	if err != nil {
		return fsError(err)
	}
	return rc.Close()
}

func framedReply(plain bool, run func(out *frameWriter)) streamReply {
	ct := contentTypeFrames
	if plain {
		ct = contentTypePlain
	}
	return streamReply{contentType: ct, body: func(w io.Writer, flush func()) {
		run(newFrameWriter(w, flush, plain))
	}}
}

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

// logRequest is a checked logs request.
type logRequest struct {
	ar            interfaces.AllocRunner
	dir           interfaces.AllocDir
	task, typ     string
	origin        string
	offset        int64
	follow, plain bool
	files         []logFile
}

// fsLogs is GET /v1/client/fs/logs/<alloc>?task=&type=stdout|stderr
// &origin=start|end&offset=&follow=&plain=: the task's log files of that
// type (<task>.<type>.<n> in alloc/logs, by index, as one stream) from
// offset, in frames or plain. follow (default false) keeps streaming what
// the task appends and the files that follow, until the task is dead and
// everything is sent, the client goes away or the runner shuts down.
func (h *Handler) fsLogs(r *http.Request) (any, uint64, error) {
	req, err := h.logRequest(r)
	if err != nil {
		return nil, 0, err
	}
	if len(req.files) == 0 && !req.follow {
		return nil, 0, notFound(fmt.Sprintf(FmtLogNotFound, req.task, req.typ))
	}
	if len(req.files) > 0 {
		i, offset := logStart(req.files, req.origin, req.offset)
		if err := probe(req.dir, req.files[i].path, offset); err != nil {
			return nil, 0, err
		}
	}
	ctx := r.Context()
	return framedReply(req.plain, func(out *frameWriter) {
		req.run(newTailer(ctx, req.ar, req.dir, out))
	}), 0, nil
}

// logRequest checks a logs request in Nomad's order: alloc, task, type,
// then the options, then the task in the alloc's group.
func (h *Handler) logRequest(r *http.Request) (*logRequest, error) {
	ar, dir, err := h.allocFS(r)
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	req := &logRequest{ar: ar, dir: dir, task: q.Get("task"), typ: q.Get("type")}
	if req.task == "" {
		return nil, badRequest(MsgTaskMissing)
	}
	if req.typ != logStdout && req.typ != logStderr {
		return nil, badRequest(MsgLogTypeMissing)
	}
	if req.offset, err = queryOffset(r, "offset"); err != nil {
		return nil, err
	}
	if req.origin, err = queryOrigin(r); err != nil {
		return nil, err
	}
	if req.follow, err = queryBool(r, "follow"); err != nil {
		return nil, err
	}
	if req.plain, err = queryBool(r, "plain"); err != nil {
		return nil, err
	}
	if a := ar.Alloc(); a != nil && a.Job != nil && a.LookupTaskGroup().LookupTask(req.task) == nil {
		return nil, badRequest(fmt.Sprintf(FmtUnknownTask, req.task))
	}
	if req.files, err = logFiles(dir, req.task, req.typ); err != nil {
		return nil, err
	}
	return req, nil
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
