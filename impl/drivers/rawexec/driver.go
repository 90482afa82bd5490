package rawexec

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/drivers"
	"github.com/benbjohnson/clock"
)

// Errors a caller may test with errors.Is.
var (
	// ErrClosed is returned by every call on a closed Driver, and by
	// StopTask and DestroyTask calls that were waiting when it closed.
	ErrClosed = errors.New(msgClosed)
	// ErrExitUnknown is the Err of a recovered task's exit result: the
	// driver saw the process end but, not being its parent, could not
	// learn its exit code or signal.
	ErrExitUnknown = errors.New(msgExitUnknown)
	// ErrUnsupported fails StartTask and RecoverTask off Linux.
	ErrUnsupported = errors.New(msgUnsupported)
)

// Driver is the raw_exec task driver. Create it with New; Close it when
// done.
type Driver struct {
	clock        clock.Clock
	path         string
	pollInterval time.Duration
	onEvent      func(Event)

	// closedCh is closed by Close; it releases waiting StopTask and
	// DestroyTask calls.
	closedCh chan struct{}

	mu     sync.Mutex
	closed bool
	tasks  map[string]*task
}

var _ drivers.Driver = (*Driver)(nil)

// New returns a raw_exec driver.
func New(cfg Config) *Driver {
	d := &Driver{
		clock:        cfg.Clock,
		path:         cfg.Path,
		pollInterval: cfg.PollInterval,
		onEvent:      cfg.OnEvent,
		closedCh:     make(chan struct{}),
		tasks:        map[string]*task{},
	}
	if d.clock == nil {
		d.clock = clock.New()
	}
	if d.path == "" {
		d.path = DefaultPath
	}
	if d.pollInterval <= 0 {
		d.pollInterval = DefaultPollInterval
	}
	return d
}

// Name returns "raw_exec".
func (d *Driver) Name() string { return Name }

// Capabilities: signals yes, exec no, no file system isolation.
func (d *Driver) Capabilities() *drivers.Capabilities {
	return &drivers.Capabilities{SendSignals: true, FSIsolation: drivers.FSIsolationNone}
}

// Close lets go of every task the way a crashed client does: the
// processes keep running (a new Driver can recover them from their
// handles), WaitTask channels close without a result, waiting StopTask
// and DestroyTask calls return ErrClosed, pending force kills and polls
// are cancelled, and every later call returns ErrClosed. Only a started
// task's reaper goroutine outlives Close, until its process exits: it is
// the process's parent, and a child nobody reaps would stay a zombie that
// looks alive to a recovering driver. Idempotent.
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
		d.onEvent(Event{Op: op, TaskID: taskID, At: d.clock.Now(), Detail: detail})
	}
}

// exitDetail is the Detail of an Exit event.
func exitDetail(r *drivers.ExitResult) string {
	detail := fmt.Sprintf("exit_code=%d signal=%d", r.ExitCode, r.Signal)
	if r.Err != nil {
		detail += fmt.Sprintf(" err=%q", r.Err.Error())
	}
	return detail
}
