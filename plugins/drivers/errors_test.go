package drivers

import (
	"errors"
	"fmt"
	"testing"

	"github.com/shoenig/test/must"
)

func TestRecoverableError(t *testing.T) {
	base := errors.New("boom")
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"plain", base, false},
		{"recoverable", NewRecoverableError(base, true), true},
		{"unrecoverable", NewRecoverableError(base, false), false},
		{"wrapped recoverable", fmt.Errorf("start: %w", NewRecoverableError(base, true)), true},
		{"outermost wins", NewRecoverableError(NewRecoverableError(base, true), false), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.Eq(t, tc.want, IsRecoverable(tc.err))
		})
	}
}

func TestRecoverableErrorKeepsMessageAndChain(t *testing.T) {
	base := errors.New("image pull failed")
	err := NewRecoverableError(base, true)
	must.EqError(t, err, "image pull failed")
	must.ErrorIs(t, err, base)
	must.NoError(t, NewRecoverableError(nil, true))
}

func TestSentinelMessages(t *testing.T) {
	must.EqError(t, ErrTaskNotFound, "task not found")
	must.EqError(t, ErrTaskRunning, "task is still running")
	must.EqError(t, ErrTaskExists, "task already started")
	must.EqError(t, ErrTaskExited, "task has exited")
	must.EqError(t, ErrDriverNotFound, "driver not found")
}
