package agent_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/benbjohnson/clock"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// fsRunner is an alloc runner that has an alloc dir and task states the
// test sets; the rest of the interface is left nil (unused by the fs
// endpoints).
type fsRunner struct {
	interfaces.AllocRunner
	alloc    *structs.Allocation
	dir      interfaces.AllocDir
	shutdown chan struct{}

	mu        sync.Mutex
	states    map[string]*structs.TaskState
	listeners map[*fsListener]bool
}

func (r *fsRunner) Alloc() *structs.Allocation       { return r.alloc }
func (r *fsRunner) GetAllocDir() interfaces.AllocDir { return r.dir }
func (r *fsRunner) ShutdownCh() <-chan struct{}      { return r.shutdown }
func (r *fsRunner) AllocState() *structs.AllocState {
	return &structs.AllocState{TaskStates: r.taskStates()}
}
func (r *fsRunner) Listener() interfaces.AllocListener { return r.listen() }

func (r *fsRunner) taskStates() map[string]*structs.TaskState {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]*structs.TaskState{}
	for k, v := range r.states {
		out[k] = &structs.TaskState{State: v.State}
	}
	return out
}

// setState sets a task's state and tells every listener.
func (r *fsRunner) setState(task, state string) {
	r.mu.Lock()
	r.states[task] = &structs.TaskState{State: state}
	ls := make([]*fsListener, 0, len(r.listeners))
	for l := range r.listeners {
		ls = append(ls, l)
	}
	r.mu.Unlock()
	a := &structs.Allocation{ID: r.alloc.ID, TaskStates: r.taskStates()}
	for _, l := range ls {
		l.send(a)
	}
}

// listenerCount is how many listeners are subscribed (the follow streams).
func (r *fsRunner) listenerCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.listeners)
}

type fsListener struct {
	r    *fsRunner
	ch   chan *structs.Allocation
	once sync.Once
	mu   sync.Mutex
	done bool
}

func (r *fsRunner) listen() *fsListener {
	l := &fsListener{r: r, ch: make(chan *structs.Allocation, 1)}
	r.mu.Lock()
	r.listeners[l] = true
	r.mu.Unlock()
	return l
}

func (l *fsListener) Ch() <-chan *structs.Allocation { return l.ch }

func (l *fsListener) send(a *structs.Allocation) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return
	}
	select {
	case <-l.ch:
	default:
	}
	l.ch <- a
}

func (l *fsListener) Close() {
	l.r.mu.Lock()
	delete(l.r.listeners, l)
	l.r.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.once.Do(func() { l.done = true; close(l.ch) })
}

// fsClient is a node client holding fsRunners.
type fsClient struct {
	node    string
	runners map[string]*fsRunner
}

func (c *fsClient) Start() error                     { return nil }
func (c *fsClient) Shutdown()                        {}
func (c *fsClient) NodeID() string                   { return c.node }
func (c *fsClient) ClientRPC(string, any, any) error { return nil }
func (c *fsClient) AllocRunner(id string) (interfaces.AllocRunner, bool) {
	r, ok := c.runners[id]
	if !ok {
		return nil, false
	}
	return r, true
}

// fsRig is an agent on a loopback listener whose client runs allocLocal
// (tasks web and api, a real disk alloc dir) and knows allocRemote (on
// another node) through its server.
type fsRig struct {
	runner *fsRunner
	dir    *allocdir.AllocDir
	srv    *httptest.Server
	api    *api.Client
}

func newFSRig(t *testing.T) *fsRig {
	t.Helper()
	dir, err := allocdir.NewDisk(allocdir.Config{Root: t.TempDir(), Clock: clock.New(), PollInterval: 5 * time.Millisecond}, allocLocal)
	must.NoError(t, err)
	must.NoError(t, dir.Build())
	for _, task := range []string{"web", "api"} {
		must.NoError(t, dir.NewTaskDir(task).Build())
	}
	job := &structs.Job{ID: "web", Name: "web", Type: "service", TaskGroups: []*structs.TaskGroup{{
		Name: "g", Count: 1, Tasks: []*structs.Task{{Name: "web", Driver: "raw_exec"}, {Name: "api", Driver: "raw_exec"}},
	}}}
	runner := &fsRunner{
		alloc: &structs.Allocation{ID: allocLocal, NodeID: "local", JobID: "web", Job: job, TaskGroup: "g"},
		dir:   dir, shutdown: make(chan struct{}),
		states:    map[string]*structs.TaskState{"web": {State: "running"}, "api": {State: "running"}},
		listeners: map[*fsListener]bool{},
	}
	client := &fsClient{node: "local", runners: map[string]*fsRunner{allocLocal: runner}}
	h, err := agent.New(agent.Config{Server: newFakeServer(fixtureAllocs()...), Client: client})
	must.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := api.NewClient(&api.Config{Address: srv.URL})
	must.NoError(t, err)
	return &fsRig{runner: runner, dir: dir, srv: srv, api: c}
}

// write writes a file of the alloc dir (relative path), making parents.
func (r *fsRig) write(t *testing.T, rel, data string) {
	t.Helper()
	p := filepath.Join(r.dir.AllocDirPath(), rel)
	must.NoError(t, os.MkdirAll(filepath.Dir(p), 0o777))
	must.NoError(t, os.WriteFile(p, []byte(data), 0o666))
}

// appendTo appends to a file of the alloc dir.
func (r *fsRig) appendTo(t *testing.T, rel, data string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(r.dir.AllocDirPath(), rel), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o666)
	must.NoError(t, err)
	_, err = f.WriteString(data)
	must.NoError(t, err)
	must.NoError(t, f.Close())
}

// get sends a raw GET and returns the status and body.
func (r *fsRig) get(t *testing.T, target string) (int, string) {
	t.Helper()
	resp, err := http.Get(r.srv.URL + target)
	must.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	must.NoError(t, err)
	return resp.StatusCode, string(b)
}

var local = &api.Allocation{ID: allocLocal, NodeID: "local"}
