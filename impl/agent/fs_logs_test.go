package agent_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
	"go.uber.org/goleak"
)

// streamBudget bounds every wait for a frame (a bound, never an assertion
// on how long anything took).
const streamBudget = 10 * time.Second

// frameStream reads the two channels AllocFS.Logs and Stream return.
// Stream sends its error (io.EOF at the end) and then closes frames,
// which may still hold frames: they come first, so that no frame is lost
// to a select that picks the error.
type frameStream struct {
	frames <-chan *api.StreamFrame
	errs   <-chan error
}

func openStream(frames <-chan *api.StreamFrame, errs <-chan error) *frameStream {
	return &frameStream{frames: frames, errs: errs}
}

// collect reads frames until the stream ends.
func (s *frameStream) collect(t *testing.T) []*api.StreamFrame {
	t.Helper()
	var out []*api.StreamFrame
	for {
		f, ok := s.next(t)
		if !ok {
			return out
		}
		out = append(out, f)
	}
}

// frame is the next frame; the stream must not have ended.
func (s *frameStream) frame(t *testing.T) *api.StreamFrame {
	t.Helper()
	f, ok := s.next(t)
	if !ok {
		t.Fatal("the stream ended; want one more frame")
	}
	return f
}

// next is the next frame, false once the stream has ended without error
// (Logs closed its channel, or Stream sent io.EOF and closed it).
func (s *frameStream) next(t *testing.T) (*api.StreamFrame, bool) {
	t.Helper()
	budget := time.After(streamBudget)
	for s.frames != nil {
		select {
		case f, ok := <-s.frames:
			if ok {
				return f, true
			}
			s.frames = nil
		case err := <-s.errs:
			s.errs = nil
			if err != io.EOF {
				t.Fatalf("stream error: %v", err)
			}
		case <-budget:
			t.Fatal("no frame within the budget")
		}
	}
	select { // a request that failed has no frames channel, only its error
	case err := <-s.errs:
		s.errs = nil
		if err != io.EOF {
			t.Fatalf("stream error: %v", err)
		}
	default:
	}
	return nil, false
}

// data concatenates the frames' data.
func data(frames []*api.StreamFrame) string {
	var b strings.Builder
	for _, f := range frames {
		b.Write(f.Data)
	}
	return b.String()
}

// TestFSLogs: logs through the official client, framed (as `alloc logs`
// reads them) and plain, from the start and from the end, over rotated
// files taken in index order.
func TestFSLogs(t *testing.T) {
	r := newFSRig(t)
	r.write(t, "alloc/logs/web.stdout.0", "line1\nline2\n")
	r.write(t, "alloc/logs/web.stderr.0", "oops\n")
	r.write(t, "alloc/logs/api.stdout.0", "aaa")
	r.write(t, "alloc/logs/api.stdout.1", "bbb")
	r.write(t, "alloc/logs/api.stdout.10", "ccc")
	r.write(t, "alloc/logs/api.stdout.x", "junk")
	r.write(t, "alloc/logs/api.stdout.-1", "junk")
	r.write(t, "alloc/logs/api.stdout.", "junk")
	logs := func(task, typ, origin string, offset int64) []*api.StreamFrame {
		t.Helper()
		return openStream(r.api.AllocFS().Logs(local, false, task, typ, origin, offset, make(chan struct{}), nil)).collect(t)
	}

	got := logs("web", "stdout", api.OriginStart, 0)
	must.Len(t, 1, got)
	must.Eq(t, api.StreamFrame{File: "alloc/logs/web.stdout.0", Data: []byte("line1\nline2\n"), Offset: 12}, *got[0])
	must.Eq(t, "line2\n", data(logs("web", "stdout", api.OriginEnd, 6)))
	must.Eq(t, "ine2\n", data(logs("web", "stdout", api.OriginStart, 7)))
	must.Eq(t, "line1\nline2\n", data(logs("web", "stdout", api.OriginEnd, 100)))
	must.Eq(t, "", data(logs("web", "stdout", api.OriginStart, 100)))
	must.Eq(t, "oops\n", data(logs("web", "stderr", api.OriginStart, 0)))

	got = logs("api", "stdout", api.OriginStart, 0)
	must.Eq(t, "aaabbbccc", data(got))
	var files []string
	for _, f := range got {
		files = append(files, f.File)
	}
	must.Eq(t, []string{"alloc/logs/api.stdout.0", "alloc/logs/api.stdout.1", "alloc/logs/api.stdout.10"}, files)
	must.Eq(t, "bccc", data(logs("api", "stdout", api.OriginEnd, 4)))
	must.Eq(t, "bbccc", data(logs("api", "stdout", api.OriginStart, 4)))

	// The CLI's reader over the frames.
	frames, errs := r.api.AllocFS().Logs(local, false, "web", "stdout", api.OriginStart, 0, make(chan struct{}), nil)
	fr := api.NewFrameReader(frames, errs, make(chan struct{}))
	b, err := io.ReadAll(fr)
	must.NoError(t, err)
	must.Eq(t, "line1\nline2\n", string(b))
	must.Eq(t, 12, fr.Offset())

	code, body := r.get(t, "/v1/client/fs/logs/"+allocLocal+"?task=api&type=stdout&plain=true&origin=end&offset=5")
	must.Eq(t, http.StatusOK, code)
	must.Eq(t, "bbccc", body)
	resp, err := http.Get(r.srv.URL + "/v1/client/fs/logs/" + allocLocal + "?task=web&type=stderr&plain=true")
	must.NoError(t, err)
	resp.Body.Close()
	must.Eq(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
	must.Eq(t, "1", resp.Header.Get("X-Nomad-Index"))
}

// TestFSLogsFollow: follow sends what the task appends and the next
// rotated file, and ends once the task is dead and all is sent.
func TestFSLogsFollow(t *testing.T) {
	// After the rig's cleanup has closed the server: no watcher is left.
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() {
		goleak.VerifyNone(t, ignore,
			goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
			goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"))
	})
	r := newFSRig(t)
	r.write(t, "alloc/logs/web.stdout.0", "one\n")
	s := openStream(r.api.AllocFS().Logs(local, true, "web", "stdout", api.OriginStart, 0, make(chan struct{}), nil))
	f, ok := s.next(t)
	must.True(t, ok)
	must.Eq(t, api.StreamFrame{File: "alloc/logs/web.stdout.0", Data: []byte("one\n"), Offset: 4}, *f)

	r.appendTo(t, "alloc/logs/web.stdout.0", "two\n")
	f, ok = s.next(t)
	must.True(t, ok)
	must.Eq(t, api.StreamFrame{File: "alloc/logs/web.stdout.0", Data: []byte("two\n"), Offset: 8}, *f)

	r.write(t, "alloc/logs/web.stdout.1", "three\n")
	f, ok = s.next(t)
	must.True(t, ok)
	must.Eq(t, api.StreamFrame{File: "alloc/logs/web.stdout.1", Data: []byte("three\n"), Offset: 6}, *f)

	r.appendTo(t, "alloc/logs/web.stdout.1", "four\n")
	r.runner.setState("web", "dead")
	rest := s.collect(t) // ends: the task is dead
	must.Eq(t, "four\n", data(rest))
	must.Eq(t, 0, r.runner.listenerCount())
}

// TestFSLogsFollowFirstFile: a follow before the task wrote anything
// waits for its first log file; a follow of a dead task sends what there
// is and ends.
func TestFSLogsFollowFirstFile(t *testing.T) {
	r := newFSRig(t)
	s := openStream(r.api.AllocFS().Logs(local, true, "api", "stderr", api.OriginStart, 0, make(chan struct{}), nil))
	r.write(t, "alloc/logs/api.stderr.0", "late\n")
	f, ok := s.next(t)
	must.True(t, ok)
	must.Eq(t, "late\n", string(f.Data))
	r.runner.setState("api", "dead")
	must.Len(t, 0, s.collect(t))

	r.write(t, "alloc/logs/api.stdout.0", "done\n")
	s = openStream(r.api.AllocFS().Logs(local, true, "api", "stdout", api.OriginStart, 0, make(chan struct{}), nil))
	must.Eq(t, "done\n", data(s.collect(t)))

	// Dead and nothing written: an empty stream.
	r.runner.setState("web", "dead")
	code, body := r.get(t, "/v1/client/fs/logs/"+allocLocal+"?task=web&type=stdout&follow=true")
	must.Eq(t, http.StatusOK, code)
	must.Eq(t, "", body)
}

// TestFSLogsFollowDisconnect: a follow ends when its client goes away.
func TestFSLogsFollowDisconnect(t *testing.T) {
	r := newFSRig(t)
	r.write(t, "alloc/logs/web.stdout.0", "x")
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		r.srv.URL+"/v1/client/fs/logs/"+allocLocal+"?task=web&type=stdout&follow=true&plain=true", nil)
	must.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	must.NoError(t, err)
	defer resp.Body.Close()
	b := make([]byte, 1)
	_, err = io.ReadFull(resp.Body, b)
	must.NoError(t, err)
	must.Eq(t, "x", string(b))
	must.Eq(t, 1, r.runner.listenerCount())
	cancel()
	deadline := time.Now().Add(streamBudget)
	for r.runner.listenerCount() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the follow did not end after the client went away")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestFSLogsFollowShutdown: a follow ends when the runner shuts down.
func TestFSLogsFollowShutdown(t *testing.T) {
	r := newFSRig(t)
	r.write(t, "alloc/logs/web.stdout.0", "x\n")
	s := openStream(r.api.AllocFS().Logs(local, true, "web", "stdout", api.OriginStart, 0, make(chan struct{}), nil))
	_, ok := s.next(t)
	must.True(t, ok)
	close(r.runner.shutdown)
	must.Len(t, 0, s.collect(t))
}

// TestFSStream: the stream endpoint (`alloc fs -f`) follows one file, with
// its truncation and deletion as file events; follow=false and origin=end
// read the tail once.
func TestFSStream(t *testing.T) {
	r := newFSRig(t)
	const p = "web/local/out.txt"
	r.write(t, p, "0123456789")

	code, body := r.get(t, "/v1/client/fs/stream/"+allocLocal+"?path="+p+"&origin=end&offset=3&follow=false&plain=true")
	must.Eq(t, http.StatusOK, code)
	must.Eq(t, "789", body)

	s := openStream(r.api.AllocFS().Stream(local, p, api.OriginEnd, 4, make(chan struct{}), nil))
	f, ok := s.next(t)
	must.True(t, ok)
	must.Eq(t, api.StreamFrame{File: p, Data: []byte("6789"), Offset: 10}, *f)

	r.appendTo(t, p, "ab")
	f = s.frame(t)
	must.Eq(t, api.StreamFrame{File: p, Data: []byte("ab"), Offset: 12}, *f)

	must.NoError(t, os.WriteFile(filepath.Join(r.dir.AllocDirPath(), p), []byte("new"), 0o666))
	f = s.frame(t)
	must.Eq(t, api.StreamFrame{File: p, FileEvent: "file truncated"}, *f)
	f = s.frame(t)
	must.Eq(t, api.StreamFrame{File: p, Data: []byte("new"), Offset: 3}, *f)

	must.NoError(t, os.Remove(filepath.Join(r.dir.AllocDirPath(), p)))
	f = s.frame(t)
	must.Eq(t, api.StreamFrame{File: p, FileEvent: "file deleted", Offset: 3}, *f)
	must.Len(t, 0, s.collect(t))

	_, errs := r.api.AllocFS().Stream(local, "web/secrets", api.OriginStart, 0, make(chan struct{}), nil)
	must.Eq(t, wantCode(400, `file "web/secrets" is a directory`), (<-errs).Error())
}
