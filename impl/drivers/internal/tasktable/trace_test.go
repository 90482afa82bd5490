package tasktable

import (
	"errors"
	"testing"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
)

// TestTracerEmit: an event carries the clock's instant (DET-1); without
// an observer nothing is traced and no clock is read.
func TestTracerEmit(t *testing.T) {
	Tracer{}.Emit(drivers.OpStart, "a/web", "ok") // a nil Clock is never read

	clk := clock.NewMock()
	clk.Add(90 * time.Second)
	var got []drivers.Event
	tr := Tracer{Clock: clk, OnEvent: func(e drivers.Event) { got = append(got, e) }}
	tr.Emit(drivers.OpStart, "a/web", "ok")
	clk.Add(time.Second)
	tr.Emit(drivers.OpExit, "a/web", "exit_code=0 signal=0")
	must.Eq(t, []drivers.Event{
		{Op: drivers.OpStart, TaskID: "a/web", At: time.Unix(90, 0), Detail: "ok"},
		{Op: drivers.OpExit, TaskID: "a/web", At: time.Unix(91, 0), Detail: "exit_code=0 signal=0"},
	}, got)
}

func TestExitDetail(t *testing.T) {
	cases := []struct {
		res  drivers.ExitResult
		want string
	}{
		{drivers.ExitResult{}, "exit_code=0 signal=0"},
		{drivers.ExitResult{ExitCode: 3}, "exit_code=3 signal=0"},
		{drivers.ExitResult{Signal: 9}, "exit_code=0 signal=9"},
		{drivers.ExitResult{ExitCode: 137, OOMKilled: true}, "exit_code=137 signal=0 oom_killed=true"},
		{drivers.ExitResult{Err: errors.New(`bad "exit"`)}, `exit_code=0 signal=0 err="bad \"exit\""`},
		{drivers.ExitResult{Signal: 9, OOMKilled: true, Err: errors.New("oom")},
			`exit_code=0 signal=9 oom_killed=true err="oom"`},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			must.Eq(t, tc.want, ExitDetail(&tc.res))
		})
	}
}
