package mock

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/drivers"
	"github.com/benbjohnson/clock"
)

// ErrClosed is returned by every call on a closed Driver, and by calls
// that were blocked when it closed.
var ErrClosed = errors.New(msgClosed)

// Driver is the mock task driver. Create it with New.
type Driver struct {
	clock   clock.Clock
	name    string
	faults  Faults
	onEvent func(DriverEvent)

	// closedCh is closed by Close; it unblocks StartTask and StopTask.
	closedCh chan struct{}

	mu     sync.Mutex
	closed bool
	tasks  map[string]*task
}

var _ drivers.Driver = (*Driver)(nil)

// New returns a mock driver.
func New(cfg Config) *Driver {
	d := &Driver{
		clock:    cfg.Clock,
		name:     cfg.Name,
		faults:   cfg.Faults,
		onEvent:  cfg.OnEvent,
		closedCh: make(chan struct{}),
		tasks:    map[string]*task{},
	}
	if d.clock == nil {
		d.clock = clock.New()
	}
	if d.name == "" {
		d.name = DefaultName
	}
	return d
}

// Name returns the driver's name.
func (d *Driver) Name() string { return d.name }

// Capabilities: signals yes, exec no, no file system isolation.
func (d *Driver) Capabilities() *drivers.Capabilities {
	return &drivers.Capabilities{SendSignals: true, FSIsolation: drivers.FSIsolationNone}
}

// Close abandons every task the way a crashed client loses track of them:
// timers are stopped, WaitTask channels close without a result, blocked
// StartTask and StopTask calls return ErrClosed, and every later call
// returns ErrClosed. No task exits and nothing is traced. Idempotent.
func (d *Driver) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	d.closed = true
	close(d.closedCh)
	for _, t := range d.tasks {
		t.abandon()
	}
	d.tasks = nil
}

// lookup returns a known task, with the lock held.
func (d *Driver) lookup(taskID string) (*task, error) {
	if d.closed {
		return nil, ErrClosed
	}
	t, ok := d.tasks[taskID]
	if !ok {
		return nil, drivers.ErrTaskNotFound
	}
	return t, nil
}

// emit traces one event, with the lock held.
func (d *Driver) emit(op Op, taskID, detail string) {
	if d.onEvent != nil {
		d.onEvent(DriverEvent{Op: op, TaskID: taskID, At: d.clock.Now(), Detail: detail})
	}
}

// block waits dur on the clock (nothing if dur ≤ 0), or until Close.
func (d *Driver) block(dur time.Duration) error {
	if dur <= 0 {
		return nil
	}
	fired := make(chan struct{})
	tm := d.clock.AfterFunc(dur, func() { close(fired) })
	select {
	case <-fired:
		return nil
	case <-d.closedCh:
		tm.Stop()
		return ErrClosed
	}
}

// errDetail is the Detail of a failed call.
func errDetail(prefix string, err error) string {
	if prefix != "" {
		prefix += " "
	}
	detail := fmt.Sprintf("%serror=%q", prefix, err.Error())
	var re *drivers.RecoverableError
	if errors.As(err, &re) {
		detail += fmt.Sprintf(" recoverable=%t", re.Recoverable)
	}
	return detail
}

// exitDetail is the Detail of an Exit event.
func exitDetail(r *drivers.ExitResult) string {
	detail := fmt.Sprintf("exit_code=%d signal=%d", r.ExitCode, r.Signal)
	if r.OOMKilled {
		detail += " oom_killed=true"
	}
	if r.Err != nil {
		detail += fmt.Sprintf(" err=%q", r.Err.Error())
	}
	return detail
}
