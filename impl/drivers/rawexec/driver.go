package rawexec

import (
	"errors"
	"maps"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/drivers/internal/tasktable"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
)

// Errors a caller may test with errors.Is.
var (
	// ErrClosed is returned by every call on a closed Driver, and by
	// StopTask and DestroyTask calls that were waiting when it closed.
	ErrClosed = errors.New("raw_exec driver closed")
	// ErrExitUnknown is the Err of a recovered task's exit result: the
	// driver saw the process end but, not being its parent, could not
	// learn its exit code or signal.
	ErrExitUnknown = errors.New("exit status unknown: the task was recovered, not started, by this driver")
	// ErrUnsupported fails StartTask and RecoverTask off Linux.
	ErrUnsupported = errors.New("the raw_exec driver runs on linux only")
)

// Driver is the raw_exec task driver. Create it with New; Close it when
// done.
type Driver struct {
	clock        clock.Clock
	path         string
	env          map[string]string
	pollInterval time.Duration
	trace        tasktable.Tracer

	// mu guards tasks (and every task in it). tasks.Closing releases
	// waiting StopTask and DestroyTask calls at Close.
	mu    sync.Mutex
	tasks *tasktable.Table[*task]
}

var _ drivers.Driver = (*Driver)(nil)

// New returns a raw_exec driver. cfg.Clock is required: New panics when it
// is nil, a wiring mistake (there is no real-clock default, DET-1).
func New(cfg Config) *Driver {
	if cfg.Clock == nil {
		panic("raw_exec driver config: clock is nil")
	}
	d := &Driver{
		clock:        cfg.Clock,
		path:         cfg.Path,
		env:          maps.Clone(cfg.Env),
		pollInterval: cfg.PollInterval,
		tasks:        tasktable.New[*task](ErrClosed),
	}
	if d.path == "" {
		d.path = DefaultPath
	}
	if d.pollInterval <= 0 {
		d.pollInterval = DefaultPollInterval
	}
	d.trace = tasktable.Tracer{Clock: d.clock, OnEvent: cfg.OnEvent}
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
	d.tasks.Close()
}
