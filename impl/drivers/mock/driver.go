package mock

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/drivers/internal/tasktable"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
)

// ErrClosed is returned by every call on a closed Driver, and by calls
// that were blocked when it closed.
var ErrClosed = errors.New("mock driver closed")

// Driver is the mock task driver. Create it with New.
type Driver struct {
	clock  clock.Clock
	name   string
	faults Faults
	trace  tasktable.Tracer

	// mu guards tasks (and every task in it). tasks.Closing unblocks
	// StartTask and StopTask at Close.
	mu    sync.Mutex
	tasks *tasktable.Table[*task]
}

var _ drivers.Driver = (*Driver)(nil)

// New returns a mock driver. cfg.Clock is required: New panics when it is
// nil, a wiring mistake (there is no real-clock default, DET-1).
func New(cfg Config) *Driver {
	if cfg.Clock == nil {
		panic("mock driver config: clock is nil")
	}
	d := &Driver{
		clock:  cfg.Clock,
		name:   cfg.Name,
		faults: cfg.Faults,
		tasks:  tasktable.New[*task](ErrClosed),
	}
	if d.name == "" {
		d.name = DefaultName
	}
	d.trace = tasktable.Tracer{Clock: d.clock, OnEvent: cfg.OnEvent}
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
	d.tasks.Close()
}

// block waits dur on the clock (nothing if dur ≤ 0), or until Close.
func (d *Driver) block(dur time.Duration) error {
	if dur <= 0 {
		return nil
	}
	fired := make(chan struct{})
	tm := d.clock.AfterFunc(dur, func() { close(fired) })
	if err := d.tasks.Await(fired); err != nil {
		tm.Stop()
		return err
	}
	return nil
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
