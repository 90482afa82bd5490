package agent

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// The alloc dir endpoints' texts, Nomad's where we know them (its HTTP
// API and CLI behaviour), ours where we do not (SPEC-NOTES "alloc fs and
// logs"). The ADIR-4 refusals come from the alloc dir as they are.
const (
	// MsgFileNameMissing is the 400 of cat, readat and stream without path.
	MsgFileNameMissing = "must provide a file name"
	// MsgTaskMissing and MsgLogTypeMissing are the logs endpoint's 400s
	// without task, or without a type of stdout or stderr.
	MsgTaskMissing    = "must provide task name"
	MsgLogTypeMissing = "must provide log type (stdout/stderr)"
	// MsgInvalidOrigin is the 400 of an origin other than start and end.
	MsgInvalidOrigin = "origin must be start or end"
	// FmtUnknownAllocation is the 404 of an alloc neither the agent's
	// client nor its server knows (API-7's text).
	FmtUnknownAllocation = "Unknown allocation %q"
	// MsgNoPathToNode is the 404 of an alloc the server places on another
	// node: this agent reaches only its own client's alloc dirs.
	MsgNoPathToNode = "No path to node"
	// FmtIsDirectory is the 400 of cat, readat and stream of a directory.
	FmtIsDirectory = "file %q is a directory"
	// FmtBadInt is the 400 of offset or limit that is not an integer, or
	// a negative offset.
	FmtBadInt = "failed to parse %s field to a non-negative integer: %q"
	// FmtUnknownTask is the logs endpoint's 400 for a task the alloc's
	// group does not have.
	FmtUnknownTask = "unknown task name %q"
	// FmtLogNotFound is the logs endpoint's 404 when the task has no log
	// file of that type (and follow is false).
	FmtLogNotFound = "log entry for task %q and log type %q not found"
	// fmtNoAllocDir is a runner that has no alloc dir (impl/minimal).
	fmtNoAllocDir = "allocation %q has no alloc dir"
)

// StreamFrame FileEvent values.
const (
	FileEventTruncated = "file truncated"
	FileEventDeleted   = "file deleted"
)

// Query values of the logs endpoint.
const (
	originStart = "start"
	originEnd   = "end"
	logStdout   = "stdout"
	logStderr   = "stderr"
)

// allocFS finds the alloc dir of the request's alloc, which the agent's
// own client runs.
func (h *Handler) allocFS(r *http.Request) (interfaces.AllocRunner, interfaces.AllocDir, error) {
	allocID := r.PathValue("id")
	if h.client != nil {
		if ar, ok := h.client.AllocRunner(allocID); ok && ar != nil {
			dir := ar.GetAllocDir()
			if dir == nil {
				return nil, nil, fmt.Errorf(fmtNoAllocDir, allocID)
			}
			return ar, dir, nil
		}
	}
	if a, ok := h.server.Alloc(allocID); ok && a != nil && (h.client == nil || a.NodeID != h.client.NodeID()) {
		return nil, nil, notFound(MsgNoPathToNode)
	}
	return nil, nil, notFound(fmt.Sprintf(FmtUnknownAllocation, allocID))
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
	offset, err := queryOffset(r, "offset")
	if err != nil {
		return nil, 0, err
	}
	limit, err := queryInt(r, "limit")
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
		return nil, badRequest(MsgFileNameMissing)
	}
	info, err := dir.Stat(path)
	if err != nil {
		return nil, fsError(err)
	}
	if info.IsDir {
		return nil, badRequest(fmt.Sprintf(FmtIsDirectory, path))
	}
	return &fsFile{ar: ar, dir: dir, path: path, info: info}, nil
}

func pathOrRoot(r *http.Request) string {
	if p := r.URL.Query().Get("path"); p != "" {
		return p
	}
	return "/"
}

// queryInt parses an optional integer query parameter; absent is 0.
func queryInt(r *http.Request, name string) (int64, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, badRequest(fmt.Sprintf(FmtBadInt, name, v))
	}
	return n, nil
}

// queryOffset is queryInt refusing negative values.
func queryOffset(r *http.Request, name string) (int64, error) {
	n, err := queryInt(r, name)
	if err == nil && n < 0 {
		return 0, badRequest(fmt.Sprintf(FmtBadInt, name, r.URL.Query().Get(name)))
	}
	return n, err
}

// queryOrigin parses origin: absent is start.
func queryOrigin(r *http.Request) (string, error) {
	switch o := r.URL.Query().Get("origin"); o {
	case "", originStart:
		return originStart, nil
	case originEnd:
		return originEnd, nil
	default:
		return "", badRequest(MsgInvalidOrigin)
	}
}

// queryBoolDefault is queryBool with a default for an absent parameter.
func queryBoolDefault(r *http.Request, name string, def bool) (bool, error) {
	if r.URL.Query().Get(name) == "" {
		return def, nil
	}
	return queryBool(r, name)
}
