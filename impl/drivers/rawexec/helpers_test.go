//go:build linux

package rawexec

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
)

// testPath is the PATH the tests' tasks run with.
const testPath = "/usr/bin:/bin"

// guard bounds every wait of a test so that a broken driver fails the test
// instead of hanging it. It is never asserted on.
const guard = 20 * time.Second

// recorder collects a driver's events.
type recorder struct {
	mu     sync.Mutex
	events []Event
	// stops receives the task ID of every StopTask event.
	stops chan string
}

func newRecorder() *recorder { return &recorder{stops: make(chan string, 16)} }

func (r *recorder) record(e Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
	if e.Op == OpStop {
		r.stops <- e.TaskID
	}
}

// ops returns the recorded operations of a task, in order.
func (r *recorder) ops(taskID string) []Op {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Op
	for _, e := range r.events {
		if e.TaskID == taskID {
			out = append(out, e.Op)
		}
	}
	return out
}

// newDriver returns a driver on the real clock with testPath, closed at
// the test's end (after the tasks' processes are killed).
func newDriver(t *testing.T, cfg Config) *Driver {
	t.Helper()
	if cfg.Path == "" {
		cfg.Path = testPath
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.New()
	}
	d := New(cfg)
	t.Cleanup(d.Close)
	return d
}

// shTask is the config of a task running script with sh -c.
func shTask(id, script string, env map[string]string) *drivers.TaskConfig {
	return &drivers.TaskConfig{
		ID: id, Name: filepath.Base(id), Driver: Name,
		Config: map[string]any{"command": "sh", "args": []any{"-c", script}},
		Env:    env,
	}
}

// start starts cfg's task and makes sure its process group is killed at
// the test's end.
func start(t *testing.T, d *Driver, cfg *drivers.TaskConfig) *drivers.TaskHandle {
	t.Helper()
	h, err := d.StartTask(cfg)
	must.NoError(t, err)
	must.Eq(t, Name, h.Driver)
	must.Eq(t, cfg.ID, h.TaskID)
	killAtEnd(t, h)
	return h
}

// killAtEnd SIGKILLs the handle's process group at the test's end if its
// process is still the task's.
func killAtEnd(t *testing.T, h *drivers.TaskHandle) {
	st := handleState(t, h)
	t.Cleanup(func() {
		if status, _, err := probeProcess(st.PID, st.ProcStart); err == nil && status == procAlive {
			_ = syscall.Kill(-st.PGID, syscall.SIGKILL)
		}
	})
}

// handleState decodes a handle's DriverState.
func handleState(t *testing.T, h *drivers.TaskHandle) driverState {
	t.Helper()
	var st driverState
	must.NoError(t, json.Unmarshal(h.DriverState, &st))
	return st
}

// wait returns the task's WaitTask channel.
func wait(t *testing.T, d *Driver, id string) <-chan *drivers.ExitResult {
	t.Helper()
	ch, err := d.WaitTask(context.Background(), id)
	must.NoError(t, err)
	return ch
}

// result receives the one exit result of a WaitTask channel and checks
// the channel is closed after it.
func result(t *testing.T, ch <-chan *drivers.ExitResult) *drivers.ExitResult {
	t.Helper()
	select {
	case r, ok := <-ch:
		must.True(t, ok, must.Sprint("WaitTask channel closed without a result"))
		_, more := <-ch
		must.False(t, more, must.Sprint("WaitTask channel not closed after the result"))
		return r
	case <-time.After(guard):
		t.Fatal("no exit result")
		return nil
	}
}

// closedEmpty checks a WaitTask channel is closed without a result.
func closedEmpty(t *testing.T, ch <-chan *drivers.ExitResult) {
	t.Helper()
	select {
	case r, ok := <-ch:
		must.False(t, ok, must.Sprintf("got result %+v, want a closed channel", r))
	case <-time.After(guard):
		t.Fatal("WaitTask channel not closed")
	}
}

// returned receives an asynchronous call's error.
func returned(t *testing.T, ch <-chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(guard):
		t.Fatal("call did not return")
		return nil
	}
}

// stopAsync runs StopTask in a goroutine.
func stopAsync(d *Driver, id string, timeout time.Duration, signal string) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- d.StopTask(id, timeout, signal) }()
	return ch
}

// fifo is a named pipe a task writes lines to: the tests' barrier. The
// test holds it open for reading and writing, so a task's write never
// blocks and a read waits for a line.
type fifo struct {
	path string
	f    *os.File
	r    *bufio.Reader
}

func newFIFO(t *testing.T) *fifo {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fifo")
	must.NoError(t, syscall.Mkfifo(path, 0o600))
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	must.NoError(t, err)
	t.Cleanup(func() { _ = f.Close() })
	return &fifo{path: path, f: f, r: bufio.NewReader(f)}
}

// line reads the next line the task wrote.
func (p *fifo) line(t *testing.T) string {
	t.Helper()
	must.NoError(t, p.f.SetReadDeadline(time.Now().Add(guard)))
	s, err := p.r.ReadString('\n')
	must.NoError(t, err)
	return strings.TrimSuffix(s, "\n")
}

// holder is a named pipe a task's child holds open for writing: reading
// it to EOF returns once every process holding it has died.
type holder struct{ path string }

func newHolder(t *testing.T) *holder {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hold")
	must.NoError(t, syscall.Mkfifo(path, 0o600))
	return &holder{path: path}
}

// open opens the pipe for reading; it returns once a writer opened it.
func (h *holder) open(t *testing.T) *os.File {
	t.Helper()
	f, err := os.Open(h.path)
	must.NoError(t, err)
	t.Cleanup(func() { _ = f.Close() })
	return f
}

// eof reads f until every writer has closed it (died).
func eof(t *testing.T, f *os.File) {
	t.Helper()
	must.NoError(t, f.SetReadDeadline(time.Now().Add(guard)))
	buf := make([]byte, 64)
	for {
		_, err := f.Read(buf)
		if err != nil {
			must.ErrorIs(t, err, io.EOF)
			return
		}
	}
}

func itoa(n int) string    { return strconv.Itoa(n) }
func utoa(n uint64) string { return strconv.FormatUint(n, 10) }
