package allocrunner

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/allocsim/allocsim/impl/taskrunner"
	"github.com/allocsim/allocsim/model/structs"
)

// fakeTR is a scripted task runner for the alloc runner's unit tests. Its
// loop follows AR-6 in outline: wait for the start gate (or kill or
// shutdown), start (Started, running), wait for a scripted exit, a kill,
// a restart or a shutdown, then (non-poststop) wait dead for an alloc
// restart or kill. A kill takes killDelay on the clock.
type fakeTR struct {
	cfg *taskrunner.Config
	log *callLog
	// launched: Start or Run was called (Shutdown then waits for the run).
	launched atomic.Bool

	mu         sync.Mutex
	state      *structs.TaskState
	version    uint64 // TaskStateVersion: bumped by every change
	pause      structs.TaskScheduleState
	killDelay  time.Duration
	restoreErr error
	signalErr  error
	restarts   []*structs.TaskEvent
	setAllocs  []*structs.Allocation
	updates    []*structs.Allocation
	signals    []string
	killEvents []*structs.TaskEvent
	markFailed string
	shutdown   bool
	ran        bool

	killCh     chan struct{}
	killOnce   sync.Once
	shutCh     chan struct{}
	shutOnce   sync.Once
	exitCh     chan bool // true: failed exit
	restartCh  chan struct{}
	waitCh     chan struct{}
	restoreSet *structs.TaskState
}

func newFakeTR(cfg *taskrunner.Config, log *callLog) *fakeTR {
	tr := &fakeTR{
		cfg: cfg, log: log,
		state:     structs.NewTaskState(),
		killCh:    make(chan struct{}),
		shutCh:    make(chan struct{}),
		exitCh:    make(chan bool, 1),
		restartCh: make(chan struct{}, 1),
		waitCh:    make(chan struct{}),
	}
	tr.state.AppendEvent(structs.NewTaskEvent(structs.TaskReceived, cfg.Clock.Now()))
	return tr
}

var _ TaskRunner = (*fakeTR)(nil)

func (f *fakeTR) name() string { return f.cfg.Task.Name }

// change mutates the state under the lock, then notifies the AR without
// the lock held (the StateUpdated contract).
func (f *fakeTR) change(fn func(s *structs.TaskState, now time.Time)) {
	f.mu.Lock()
	fn(f.state, f.cfg.Clock.Now())
	f.version++
	f.mu.Unlock()
	f.cfg.StateUpdated()
}

func (f *fakeTR) setState(st string) func(*structs.TaskState, time.Time) {
	return func(s *structs.TaskState, now time.Time) { s.SetState(st, now) }
}

// Start is Run in a goroutine; the fake's Kill and Shutdown wait for
// WaitCh whether or not Run began.
func (f *fakeTR) Start() {
	f.launched.Store(true)
	go f.Run()
}

func (f *fakeTR) Run() {
	f.launched.Store(true)
	defer close(f.waitCh)
	f.mu.Lock()
	f.ran = true
	f.mu.Unlock()
	f.log.add("run:" + f.name())
	select {
	case <-f.cfg.StartConditionMetCh:
	case <-f.killCh:
		f.change(f.setState(structs.TaskStateDead))
		return
	case <-f.shutCh:
		return
	}
	for {
		f.log.add("start:" + f.name())
		f.change(func(s *structs.TaskState, now time.Time) {
			s.AppendEvent(structs.NewTaskEvent(structs.TaskStarted, now))
			s.SetState(structs.TaskStateRunning, now)
		})
		select {
		case failed := <-f.exitCh:
			if failed {
				f.log.add("exit-failed:" + f.name())
			} else {
				f.log.add("exit-ok:" + f.name())
			}
			f.change(func(s *structs.TaskState, now time.Time) {
				s.AppendEvent(structs.NewTaskEvent(structs.TaskTerminated, now))
				if failed {
					s.AppendEvent(structs.NewTaskEvent(structs.TaskNotRestarting, now).SetFailsTask())
				}
				s.SetState(structs.TaskStateDead, now)
			})
		case <-f.killCh:
			f.dieKilled()
			return
		case <-f.restartCh:
			f.change(f.setState(structs.TaskStatePending))
			continue
		case <-f.shutCh:
			return
		}
		if f.cfg.Task.IsPoststop() {
			return
		}
		select { // dead: wait for an alloc restart or a kill (AR-6)
		case <-f.killCh:
			return
		case <-f.shutCh:
			return
		case <-f.restartCh:
			f.change(f.setState(structs.TaskStatePending))
		}
	}
}

func (f *fakeTR) dieKilled() {
	f.mu.Lock()
	d := f.killDelay
	f.mu.Unlock()
	if d > 0 {
		select {
		case <-f.cfg.Clock.After(d):
		case <-f.shutCh:
			return
		}
	}
	f.log.add("dead:" + f.name())
	f.change(func(s *structs.TaskState, now time.Time) {
		s.AppendEvent(structs.NewTaskEvent(structs.TaskKilled, now))
		s.SetState(structs.TaskStateDead, now)
	})
}

func (f *fakeTR) Restore() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.restoreSet != nil {
		f.state = f.restoreSet.Copy()
		f.version++
	}
	return f.restoreErr
}

func (f *fakeTR) WaitCh() <-chan struct{} { return f.waitCh }
func (f *fakeTR) Task() *structs.Task     { return f.cfg.Task }
func (f *fakeTR) TaskState() *structs.TaskState {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state.Copy()
}
func (f *fakeTR) SharedTaskState() *structs.TaskState { return f.TaskState() }
func (f *fakeTR) TaskStateVersion() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.version
}
func (f *fakeTR) IsPoststopTask() bool { return f.cfg.Task.IsPoststop() }

func (f *fakeTR) AppendEvent(ev *structs.TaskEvent) {
	f.change(func(s *structs.TaskState, _ time.Time) { s.AppendEvent(ev) })
}

func (f *fakeTR) Kill(ctx context.Context, ev *structs.TaskEvent) error {
	f.mu.Lock()
	f.killEvents = append(f.killEvents, ev)
	f.mu.Unlock()
	f.log.add("kill:" + f.name())
	if ev != nil {
		f.AppendEvent(ev)
	}
	f.killOnce.Do(func() { close(f.killCh) })
	select {
	case <-f.waitCh:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *fakeTR) Restart(_ context.Context, ev *structs.TaskEvent, failure bool) error {
	f.mu.Lock()
	f.restarts = append(f.restarts, ev)
	f.mu.Unlock()
	f.AppendEvent(ev)
	select {
	case f.restartCh <- struct{}{}:
	default:
	}
	return nil
}

func (f *fakeTR) Signal(ev *structs.TaskEvent, sig string) error {
	f.mu.Lock()
	err := f.signalErr
	f.signals = append(f.signals, sig)
	f.mu.Unlock()
	if err != nil {
		return err
	}
	f.AppendEvent(ev)
	return nil
}

func (f *fakeTR) SetAlloc(a *structs.Allocation) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.setAllocs = append(f.setAllocs, a)
}

func (f *fakeTR) Update(a *structs.Allocation) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.updates = append(f.updates, a)
}

func (f *fakeTR) Shutdown() {
	f.mu.Lock()
	f.shutdown = true
	f.mu.Unlock()
	f.shutOnce.Do(func() { close(f.shutCh) })
	if f.launched.Load() {
		<-f.waitCh
	}
}

func (f *fakeTR) MarkFailedKill(reason string) {
	f.mu.Lock()
	f.markFailed = reason
	f.mu.Unlock()
	ev := structs.NewTaskEvent(structs.TaskSetupFailure, f.cfg.Clock.Now()).
		SetDisplayMessage(reason).SetFailsTask().SetKillReason(structs.TaskRestoreFailed)
	f.AppendEvent(ev)
	f.killOnce.Do(func() { close(f.killCh) })
}

var errNoSchedule = errors.New("fake: no schedule")

func (f *fakeTR) SetPauseState(s structs.TaskScheduleState) error {
	if f.cfg.Task.Schedule == nil {
		return errNoSchedule
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pause = s
	return nil
}

func (f *fakeTR) GetPauseState() structs.TaskScheduleState {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pause
}

// exit makes the running task exit (failed or not).
func (f *fakeTR) exit(failed bool) { f.exitCh <- failed }

func (f *fakeTR) snapshot() fakeTRView {
	f.mu.Lock()
	defer f.mu.Unlock()
	return fakeTRView{
		killEvents: append([]*structs.TaskEvent(nil), f.killEvents...),
		updates:    append([]*structs.Allocation(nil), f.updates...),
		setAllocs:  append([]*structs.Allocation(nil), f.setAllocs...),
		signals:    append([]string(nil), f.signals...),
		restarts:   len(f.restarts),
		markFailed: f.markFailed,
		shutdown:   f.shutdown,
		ran:        f.ran,
	}
}

type fakeTRView struct {
	killEvents []*structs.TaskEvent
	updates    []*structs.Allocation
	setAllocs  []*structs.Allocation
	signals    []string
	restarts   int
	markFailed string
	shutdown   bool
	ran        bool
}

// callLog records calls across task runners in order.
type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, s)
}

func (l *callLog) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.calls...)
}
