package vclock

import (
	"os"
	"testing"
	"testing/synctest"
	"time"

	"github.com/shoenig/test/must"
)

var t0 = time.Date(2024, 3, 10, 6, 0, 0, 0, time.UTC)

// TestQueueNext: the queue reports the earliest armed deadline.
func TestQueueNext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := New(t0)
		q := clk
		must.NoError(t, q.Err())
		_, ok := q.Next()
		must.False(t, ok)
		clk.AfterFunc(3*time.Second, func() {})
		tm := clk.Timer(time.Second)
		tk := clk.Ticker(2 * time.Second)
		defer tk.Stop()
		n, ok := q.Next()
		must.True(t, ok)
		must.EqOp(t, t0.Add(time.Second), n)
		must.EqOp(t, 3, q.Pending())
		tm.Stop()
		n, _ = q.Next()
		must.EqOp(t, t0.Add(2*time.Second), n)
	})
}

// TestQueueSuspend: overdue timers fire once at the resume instant, one
// nanosecond per distinct deadline apart; timers that shared a deadline
// share an instant again (else which of them fires first, and which
// falls past a run's end, would be the order they were armed in).
func TestQueueSuspend(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := New(t0)
		q := clk
		must.NoError(t, q.Err())
		fired := make(chan time.Time, 4)
		clk.AfterFunc(2*time.Minute, func() { fired <- clk.Now() })
		clk.AfterFunc(2*time.Minute, func() { fired <- clk.Now() })
		clk.AfterFunc(3*time.Hour, func() { fired <- clk.Now() })
		tk := clk.Ticker(time.Second)
		defer tk.Stop()
		must.NoError(t, q.Suspend(time.Hour))
		must.EqOp(t, t0.Add(time.Hour), clk.Now())
		n, _ := q.Next()
		must.EqOp(t, t0.Add(time.Hour), n)
		clk.Add(time.Nanosecond)
		synctest.Wait()
		must.EqOp(t, t0.Add(time.Hour), <-tk.C, must.Sprint("the ticker was due first (1s)"))
		must.EqOp(t, t0.Add(time.Hour+time.Nanosecond), <-fired, must.Sprint("then the 2m timers, 1ns later"))
		must.EqOp(t, t0.Add(time.Hour+time.Nanosecond), <-fired, must.Sprint("both at one instant"))
		n, _ = q.Next()
		must.EqOp(t, t0.Add(time.Hour+time.Second), n, must.Sprint("the ticker resumes from the resume instant"))
		select {
		case <-fired:
			t.Fatal("a timer due after the resume instant fired")
		default:
		}
	})
}

// TestWhichQueue: inside this module the replace of go.mod links the fork
// (third_party/clock); `make test-upstream-clock` runs these tests with a
// go.mod without it, and sets ALLOCSIM_UPSTREAM_CLOCK=1, so the fallback is
// tested too and this test proves which one ran.
func TestWhichQueue(t *testing.T) {
	clk := New(t0)
	must.NoError(t, clk.Err())
	upstream := os.Getenv("ALLOCSIM_UPSTREAM_CLOCK") != ""
	_, onFork := clk.q.(forkQueue)
	must.EqOp(t, !upstream, onFork)
	must.EqOp(t, !upstream, Forked())
	if upstream {
		_, err := newReflectQueue(clk.Mock())
		must.NoError(t, err)
	} else {
		_, err := newReflectQueue(clk.Mock())
		must.ErrorIs(t, err, errMockShape, must.Sprint("the fork's Mock is not the shape the fallback reads"))
	}
}
