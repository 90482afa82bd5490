package sim

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
)

var t0 = time.Date(2024, 3, 10, 6, 0, 0, 0, time.UTC)

// TestMockQueueNext: the queue reports the earliest armed deadline.
func TestMockQueueNext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		q, err := newMockQueue(clk.Mock())
		must.NoError(t, err)
		_, ok := q.next()
		must.False(t, ok)
		clk.AfterFunc(3*time.Second, func() {})
		tm := clk.Timer(time.Second)
		tk := clk.Ticker(2 * time.Second)
		defer tk.Stop()
		n, ok := q.next()
		must.True(t, ok)
		must.EqOp(t, t0.Add(time.Second), n)
		must.EqOp(t, 3, q.len())
		tm.Stop()
		n, _ = q.next()
		must.EqOp(t, t0.Add(2*time.Second), n)
	})
}

// TestMockQueueSuspend: overdue timers fire once at the resume instant.
func TestMockQueueSuspend(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		q, err := newMockQueue(clk.Mock())
		must.NoError(t, err)
		fired := make(chan time.Time, 4)
		clk.AfterFunc(2*time.Minute, func() { fired <- clk.Now() })
		clk.AfterFunc(3*time.Hour, func() { fired <- clk.Now() })
		tk := clk.Ticker(time.Second)
		defer tk.Stop()
		must.NoError(t, q.suspend(time.Hour))
		must.EqOp(t, t0.Add(time.Hour), clk.Now())
		n, _ := q.next()
		must.EqOp(t, t0.Add(time.Hour), n)
		clk.Add(time.Nanosecond)
		synctest.Wait()
		must.EqOp(t, t0.Add(time.Hour), <-tk.C, must.Sprint("the ticker was due first (1s)"))
		must.EqOp(t, t0.Add(time.Hour+time.Nanosecond), <-fired, must.Sprint("then the 2m timer, 1ns later"))
		n, _ = q.next()
		must.EqOp(t, t0.Add(time.Hour+time.Second), n, must.Sprint("the ticker resumes from the resume instant"))
		select {
		case <-fired:
			t.Fatal("a timer due after the resume instant fired")
		default:
		}
	})
}
