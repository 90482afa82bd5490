package drivers

import "errors"

// Sentinel errors a driver wraps (with %w) so callers can test them with
// errors.Is.
var (
	// ErrTaskNotFound: the driver does not know the task ID.
	ErrTaskNotFound = errors.New("task not found")
	// ErrTaskRunning: DestroyTask without force on a task still running.
	ErrTaskRunning = errors.New("task is still running")
	// ErrTaskExists: StartTask of an ID whose task is still running.
	ErrTaskExists = errors.New("task already started")
	// ErrTaskExited: SignalTask to a task that has exited.
	ErrTaskExited = errors.New("task has exited")
	// ErrDriverNotFound: a DriverManager has no driver of that name.
	ErrDriverNotFound = errors.New("driver not found")
)

// RecoverableError marks a start error as recoverable or not (SPEC AR-7
// rule 5). Its message is the wrapped error's, unchanged, so task events
// carry the driver's own text (DATA-8 `Driver Failure`).
type RecoverableError struct {
	Err         error
	Recoverable bool
}

// NewRecoverableError wraps err, marking it recoverable or not. A nil err
// stays nil.
func NewRecoverableError(err error, recoverable bool) error {
	if err == nil {
		return nil
	}
	return &RecoverableError{Err: err, Recoverable: recoverable}
}

// Error returns the wrapped error's message.
func (e *RecoverableError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *RecoverableError) Unwrap() error { return e.Err }

// IsRecoverable reports whether the outermost RecoverableError in err's
// chain is marked recoverable. Errors without one are not recoverable.
func IsRecoverable(err error) bool {
	var re *RecoverableError
	return errors.As(err, &re) && re.Recoverable
}
