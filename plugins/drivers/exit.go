package drivers

// ExitResult is how a task ended, as WaitTask reports it.
type ExitResult struct {
	// ExitCode of the task's process.
	ExitCode int
	// Signal that killed it, 0 if none.
	Signal int
	// OOMKilled is true when the task was killed for exceeding its memory.
	OOMKilled bool
	// Err is a driver-side error about the exit (DATA-7 exit_message).
	Err error
}

// Successful reports a successful exit (SPEC AR-7): code 0, signal 0, no
// error.
func (r *ExitResult) Successful() bool {
	return r != nil && r.ExitCode == 0 && r.Signal == 0 && r.Err == nil
}

// Copy returns a copy (Err is shared: errors are immutable values).
func (r *ExitResult) Copy() *ExitResult {
	if r == nil {
		return nil
	}
	out := *r
	return &out
}
