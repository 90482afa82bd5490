package agent

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// allocFS finds the alloc dir of the request's alloc, which the agent's
// own client runs.
func (h *Handler) allocFS(r *http.Request) (interfaces.AllocRunner, interfaces.AllocDir, error) {
	allocID := r.PathValue("id")
	if h.client != nil {
		if ar, ok := h.client.AllocRunner(allocID); ok && ar != nil {
			dir := ar.GetAllocDir()
			if dir == nil {
				return nil, nil, fmt.Errorf("allocation %q has no alloc dir", allocID)
			}
			return ar, dir, nil
		}
	}
	if a, ok := h.server.Alloc(allocID); ok && a != nil && (h.client == nil || a.NodeID != h.client.NodeID()) {
		return nil, nil, notFound(structs.MsgNoPathToNode)
	}
	return nil, nil, notFound(fmt.Sprintf(structs.FmtUnknownAllocation, allocID))
}

// fsError maps an alloc dir error: a missing path is a 404 (Nomad's ls
// and stat; here every endpoint), anything else (ADIR-4's refusals
// included) a 500 with the message as is, as Nomad serves the alloc dir's
// errors.
func fsError(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return notFound(err.Error())
	}
	return err
}

// fsList is GET /v1/client/fs/ls/<alloc>?path= (default "/"): the
// entries, sorted by name, as api.AllocFileInfo ([] when empty).
func (h *Handler) fsList(r *http.Request) (any, uint64, error) {
	_, dir, err := h.allocFS(r)
	if err != nil {
		return nil, 0, err
	}
	entries, err := dir.List(pathOrRoot(r))
	if err != nil {
		return nil, 0, fsError(err)
	}
	if entries == nil {
		entries = []*interfaces.AllocFileInfo{}
	}
	return entries, 0, nil
}

// fsStat is GET /v1/client/fs/stat/<alloc>?path= (default "/").
func (h *Handler) fsStat(r *http.Request) (any, uint64, error) {
	_, dir, err := h.allocFS(r)
	if err != nil {
		return nil, 0, err
	}
	info, err := dir.Stat(pathOrRoot(r))
	if err != nil {
		return nil, 0, fsError(err)
	}
	return info, 0, nil
}

// fsCat is GET /v1/client/fs/cat/<alloc>?path=: the whole file as
// text/plain.
func (h *Handler) fsCat(r *http.Request) (any, uint64, error) {
	rc, err := h.openFile(r, 0)
	if err != nil {
		return nil, 0, err
	}
	return copyReply(rc, -1), 0, nil
}

// fsReadAt is GET /v1/client/fs/readat/<alloc>?path=&offset=&limit=:
// limit bytes (all when limit <= 0) from offset, as text/plain.
func (h *Handler) fsReadAt(r *http.Request) (any, uint64, error) {
	offset, err := queryInt(r, "offset", true)
	if err != nil {
		return nil, 0, err
	}
	limit, err := queryInt(r, "limit", false)
	if err != nil {
		return nil, 0, err
	}
	rc, err := h.openFile(r, offset)
	if err != nil {
		return nil, 0, err
	}
	return copyReply(rc, limit), 0, nil
}

// openFile checks a cat or readat request in Nomad's order (alloc, path,
// stat, directory) and opens the file at offset (ADIR-4's secrets rule).
func (h *Handler) openFile(r *http.Request, offset int64) (io.ReadCloser, error) {
	f, err := h.statFile(r)
	if err != nil {
		return nil, err
	}
	rc, err := f.dir.ReadAt(f.path, offset)
	if err != nil {
		return nil, fsError(err)
	}
	return rc, nil
}

// fsFile is a file a request names: its runner, alloc dir, path and Stat.
type fsFile struct {
	ar   interfaces.AllocRunner
	dir  interfaces.AllocDir
	path string
	info *interfaces.AllocFileInfo
}

// statFile is the common start of the file endpoints: the alloc dir, a
// path that is given, exists and is no directory (fsError's statuses).
func (h *Handler) statFile(r *http.Request) (*fsFile, error) {
	ar, dir, err := h.allocFS(r)
	if err != nil {
		return nil, err
	}
	path := r.URL.Query().Get("path")
	if path == "" {
		return nil, badRequest("must provide a file name")
	}
	info, err := dir.Stat(path)
	if err != nil {
		return nil, fsError(err)
	}
	if info.IsDir {
		return nil, badRequest(fmt.Sprintf("file %q is a directory", path))
	}
	return &fsFile{ar: ar, dir: dir, path: path, info: info}, nil
}

// Query values of the logs endpoint.
const (
	originStart = "start"
	originEnd   = "end"
	logStdout   = "stdout"
	logStderr   = "stderr"
)

func pathOrRoot(r *http.Request) string {
	if p := r.URL.Query().Get("path"); p != "" {
		return p
	}
	return "/"
}

// queryInt parses an optional integer query parameter, refusing
// negative ones when nonNegative; absent is 0.
func queryInt(r *http.Request, name string, nonNegative bool) (int64, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || (nonNegative && n < 0) {
		return 0, badRequest(fmt.Sprintf("failed to parse %s field to a non-negative integer: %q", name, v))
	}
	return n, nil
}

// queryOrigin parses origin: absent is start.
func queryOrigin(r *http.Request) (string, error) {
	switch o := r.URL.Query().Get("origin"); o {
	case "", originStart:
		return originStart, nil
	case originEnd:
		return originEnd, nil
	default:
		return "", badRequest("origin must be start or end")
	}
}

// queryBoolDefault is queryBool with a default for an absent parameter.
func queryBoolDefault(r *http.Request, name string, def bool) (bool, error) {
	if r.URL.Query().Get(name) == "" {
		return def, nil
	}
	return queryBool(r, name)
}

// fsStream is GET /v1/client/fs/stream/<alloc>?path=&offset=&origin=
// &follow=&plain=: the file from offset (counted from the end with
// origin=end) in frames (plain: bare bytes); follow (default true) keeps
// sending what is appended, until the file is deleted, the client goes
// away or the runner shuts down.
func (h *Handler) fsStream(r *http.Request) (any, uint64, error) {
	offset, err := queryInt(r, "offset", true)
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
		return nil, 0, notFound(fmt.Sprintf("log entry for task %q and log type %q not found", req.task, req.typ))
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
		return nil, badRequest("must provide task name")
	}
	if req.typ != logStdout && req.typ != logStderr {
		return nil, badRequest("must provide log type (stdout/stderr)")
	}
	if req.offset, err = queryInt(r, "offset", true); err != nil {
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
		return nil, badRequest(fmt.Sprintf("unknown task name %q", req.task))
	}
	if req.files, err = logFiles(dir, req.task, req.typ); err != nil {
		return nil, err
	}
	return req, nil
}
