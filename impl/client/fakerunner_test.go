package client

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
)

// fakeRunner is an AllocRunner whose update priority the test controls
// and which records what the client called. Run reports the alloc running
// (unless quiet) and blocks until Shutdown or Destroy, like a real runner.
type fakeRunner struct {
	cfg *interfaces.Config

	mu         sync.Mutex
	alloc      *structs.Allocation
	prio       syncpolicy.Priority
	calls      []string
	acked      []*structs.AllocState
	restoreErr error
	signalErrs map[string]error
	pause      map[string]structs.TaskScheduleState
	quiet      bool
	// onPriority, if set, runs inside GetUpdatePriority without the
	// runner's lock (a producer racing the classification).
	onPriority func(r *fakeRunner)
	// classify, if set, is the priority of the update asked about
	// (instead of prio): a runner comparing it with its acknowledged state.
	classify func(update *structs.Allocation) syncpolicy.Priority

	stopOnce sync.Once
	stop     chan struct{}
	waitCh   chan struct{}
	destroy  chan struct{}
	dOnce    sync.Once
}

var _ interfaces.AllocRunner = (*fakeRunner)(nil)

// fakeFactory builds fakeRunners and keeps them by alloc ID (the latest
// build wins); configure tunes each new runner; failFor makes the factory
// fail for some alloc IDs.
type fakeFactory struct {
	mu        sync.Mutex
	runners   map[string]*fakeRunner
	builds    []string
	configure func(r *fakeRunner)
	failFor   map[string]error
}

func newFakeFactory() *fakeFactory { return &fakeFactory{runners: map[string]*fakeRunner{}} }

func (f *fakeFactory) build(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.builds = append(f.builds, cfg.Alloc.ID)
	if err := f.failFor[cfg.Alloc.ID]; err != nil {
		return nil, err
	}
	r := &fakeRunner{
		cfg: cfg, alloc: cfg.Alloc.Copy(), prio: syncpolicy.Typical,
		pause: map[string]structs.TaskScheduleState{}, signalErrs: map[string]error{},
		stop: make(chan struct{}), waitCh: make(chan struct{}), destroy: make(chan struct{}),
	}
	if f.configure != nil {
		f.configure(r)
	}
	f.runners[cfg.Alloc.ID] = r
	return r, nil
}

func (f *fakeFactory) runner(id string) *fakeRunner {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.runners[id]
}

func (f *fakeFactory) buildLog() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.builds)
}

func (r *fakeRunner) record(call string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, call)
}

func (r *fakeRunner) callLog() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

func (r *fakeRunner) ackLog() []*structs.AllocState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.acked)
}

func (r *fakeRunner) setPriority(p syncpolicy.Priority) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.prio = p
}

// push reports the alloc with the given status and description.
func (r *fakeRunner) push(status, desc string) {
	r.mu.Lock()
	r.alloc.ClientStatus, r.alloc.ClientDescription = status, desc
	a := r.alloc.Copy()
	r.mu.Unlock()
	r.cfg.StateUpdater.AllocStateUpdated(a)
}

func (r *fakeRunner) Run() {
	r.record("run")
	r.mu.Lock()
	quiet := r.quiet
	r.mu.Unlock()
	if !quiet {
		r.push(structs.AllocClientStatusRunning, "v1")
	}
	select {
	case <-r.stop:
	case <-r.destroy:
	}
	close(r.waitCh)
}

func (r *fakeRunner) Alloc() *structs.Allocation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.alloc.Copy()
}

func (r *fakeRunner) Restore() error {
	r.record("restore")
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.restoreErr
}

func (r *fakeRunner) Update(a *structs.Allocation) {
	r.record(fmt.Sprintf("update:%d", a.AllocModifyIndex))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.alloc = a.Copy()
}

func (r *fakeRunner) Reconnect(a *structs.Allocation) error {
	r.record(fmt.Sprintf("reconnect:%d", a.AllocModifyIndex))
	return errors.New("reconnect refused")
}

func (r *fakeRunner) Shutdown() {
	r.record("shutdown")
	r.stopOnce.Do(func() { close(r.stop) })
}

func (r *fakeRunner) Destroy() {
	r.record("destroy")
	r.dOnce.Do(func() { close(r.destroy) })
}

func (r *fakeRunner) IsDestroyed() bool           { return false }
func (r *fakeRunner) IsMigrating() bool           { return false }
func (r *fakeRunner) IsWaiting() bool             { return false }
func (r *fakeRunner) WaitCh() <-chan struct{}     { return r.waitCh }
func (r *fakeRunner) DestroyCh() <-chan struct{}  { return r.destroy }
func (r *fakeRunner) ShutdownCh() <-chan struct{} { return r.stop }

func (r *fakeRunner) AllocState() *structs.AllocState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.alloc.ClientState()
}

func (r *fakeRunner) PersistState() error {
	r.record("persist")
	return nil
}

func (r *fakeRunner) AcknowledgeState(s *structs.AllocState) {
	r.record("ack")
	r.mu.Lock()
	defer r.mu.Unlock()
	r.acked = append(r.acked, s)
}

func (r *fakeRunner) GetUpdatePriority(update *structs.Allocation) syncpolicy.Priority {
	r.mu.Lock()
	hook, classify := r.onPriority, r.classify
	r.mu.Unlock()
	if hook != nil {
		hook(r)
	}
	if classify != nil {
		return classify(update)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.prio
}

func (r *fakeRunner) SetClientStatus(status string) {
	r.record("status:" + status)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.alloc.ClientStatus = status
}

func (r *fakeRunner) Signal(task, sig string) error {
	r.record("signal:" + task + ":" + sig)
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.signalErrs[task]
}

func (r *fakeRunner) RestartTask(task string, ev *structs.TaskEvent) error {
	r.record(fmt.Sprintf("restart:%s:%v", task, ev))
	if task == "missing" {
		return errors.New("Could not find task runner for task: missing")
	}
	return nil
}

func (r *fakeRunner) RestartRunning(ev *structs.TaskEvent) error {
	r.record(fmt.Sprintf("restart-running:%v", ev))
	return nil
}

func (r *fakeRunner) RestartAll(ev *structs.TaskEvent) error {
	r.record(fmt.Sprintf("restart-all:%v", ev))
	return nil
}

func (r *fakeRunner) Listener() interfaces.AllocListener { return nil }
func (r *fakeRunner) GetAllocDir() interfaces.AllocDir   { return nil }

func (r *fakeRunner) SetTaskPauseState(task string, s structs.TaskScheduleState) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if task == "missing" {
		return errors.New("Task not found")
	}
	r.pause[task] = s
	return nil
}

func (r *fakeRunner) GetTaskPauseState(task string) (structs.TaskScheduleState, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if task == "missing" {
		return "", errors.New("Task not found")
	}
	return r.pause[task], nil
}
