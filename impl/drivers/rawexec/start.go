package rawexec

import (
	"errors"
	"fmt"
	"os"

	"github.com/allocsim/allocsim/plugins/drivers"
)

// StartTask starts cfg's task (package doc): decodes the Config (a bad
// key fails, unrecoverable, naming the key), refuses an ID whose task is
// still running (drivers.ErrTaskExists; an exited one is replaced),
// resolves the command in the task's PATH and starts it in its own
// process group. A missing or non-executable program is an
// unrecoverable error, any other start failure a recoverable one
// (drivers.IsRecoverable). The handle's DriverState records pid, pgid,
// the start instant on the clock and the program path.
func (d *Driver) StartTask(cfg *drivers.TaskConfig) (*drivers.TaskHandle, error) {
	if cfg == nil || cfg.ID == "" {
		return nil, errors.New("task config has no ID")
	}
	id := cfg.ID
	if !supported {
		return nil, fmt.Errorf("start task %q: %w", id, ErrUnsupported)
	}
	spec, err := decodeSpec(cfg.Config)
	if err != nil {
		return nil, fmt.Errorf("start task %q: %w", id, err)
	}

	d.mu.Lock()
	defer d.mu.Unlock()
	if d.tasks.Closed() {
		return nil, fmt.Errorf("start task %q: %w", id, ErrClosed)
	}
	if old, ok := d.tasks.Get(id); ok && old.running() {
		return nil, fmt.Errorf("start task %q: %w", id, drivers.ErrTaskExists)
	}
	cmd, files, err := buildCmd(cfg, spec, d.path, d.env)
	if err == nil {
		unignoreSignals() // the task starts with default dispositions
		err = cmd.Start()
		if err != nil {
			err = fmt.Errorf("start process %q: %w", cmd.Path, err)
		}
		closeFiles(files) // the child holds its own copies
	}
	if err != nil {
		return nil, drivers.NewRecoverableError(fmt.Errorf("start task %q: %w", id, err), !permanentStartError(err))
	}

	pid := cmd.Process.Pid
	procStart, _ := procStartTime(pid) // 0: recovery cannot check identity
	st := driverState{
		PID: pid, PGID: pid, StartedAt: d.clock.Now().UnixNano(), Command: cmd.Path, ProcStart: procStart,
	}
	t := newTask(id, st, cmd)
	d.tasks.Put(id, t)
	go d.reap(t)
	h, err := encodeHandle(id, &st)
	if err != nil {
		// Nothing to persist: the task may not outlive the call.
		_ = signalGroup(st.PGID, drivers.SIGKILL)
		return nil, fmt.Errorf("start task %q: %w", id, err)
	}
	d.trace.Emit(OpStart, id, fmt.Sprintf("pid=%d command=%s", pid, cmd.Path))
	return h, nil
}

// RecoverTask re-attaches to the task of a raw_exec handle after a
// client restart (STATE-4) if its process is still running: the pid
// exists, is not a zombie, has the recorded start time and can be
// signalled. The task is then polled every PollInterval on the clock;
// when the process is gone its exit result is ExitResult{Err:
// ErrExitUnknown} (the driver is not its parent, so it cannot learn code
// or signal). A task this instance already tracks is left as it is
// (nil). A handle of another driver or version, undecodable state or a
// process that is gone is an error.
func (d *Driver) RecoverTask(h *drivers.TaskHandle) error {
	if h == nil {
		return errors.New("nil task handle")
	}
	id := h.TaskID
	if !supported {
		return fmt.Errorf("recover task %q: %w", id, ErrUnsupported)
	}
	st, err := decodeHandle(h)
	if err != nil {
		return fmt.Errorf("recover task %q: %w", id, err)
	}

	d.mu.Lock()
	defer d.mu.Unlock()
	if d.tasks.Closed() {
		return fmt.Errorf("recover task %q: %w", id, ErrClosed)
	}
	if t, ok := d.tasks.Get(id); ok && t.running() {
		d.trace.Emit(OpRecover, id, "already_tracked")
		return nil
	}
	if err := checkRecoverable(st); err != nil {
		return fmt.Errorf("recover task %q: %w", id, err)
	}
	t := newTask(id, *st, nil)
	d.tasks.Put(id, t)
	d.schedulePoll(t)
	d.trace.Emit(OpRecover, id, fmt.Sprintf("pid=%d", st.PID))
	return nil
}

// checkRecoverable tells whether a handle's process is the task's and
// still running.
func checkRecoverable(st *driverState) error {
	status, start, err := probeProcess(st.PID, st.ProcStart)
	if err != nil {
		return fmt.Errorf("probe process %d: %w", st.PID, err)
	}
	switch status {
	case procGone:
		return fmt.Errorf("process %d is not running", st.PID)
	case procReused:
		return fmt.Errorf("process %d is another process (start time %d, want %d)", st.PID, start, st.ProcStart)
	}
	if err := signalProcess(st.PID, 0); err != nil {
		return fmt.Errorf("probe process %d: %w", st.PID, err)
	}
	return nil
}

// closeFiles closes the driver's copies of the task's log files.
func closeFiles(files []*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}
