package vclock

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/shoenig/test/must"
)

var start = time.Date(2024, 3, 10, 6, 0, 0, 0, time.UTC)

// TestTimerFiresOnlyFromAdd: arming a timer that is already due does not
// fire it from the caller; only the next Add does.
func TestTimerFiresOnlyFromAdd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New(start)
		tm := c.Timer(0)
		synctest.Wait()
		select {
		case <-tm.C:
			t.Fatal("Timer(0) fired from the caller's goroutine")
		default:
		}
		c.Add(0)
		synctest.Wait()
		got := <-tm.C
		must.True(t, got.Equal(start))
	})
}

// TestUnreadTimerDoesNotBlock: a fired timer nobody reads, then reset and
// fired again, never blocks the clock.
func TestUnreadTimerDoesNotBlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New(start)
		tm := c.Timer(time.Second)
		c.Add(time.Second)
		tm.Reset(time.Second)
		c.Add(time.Second)
		synctest.Wait()
		must.True(t, (<-tm.C).Equal(start.Add(time.Second)), must.Sprint("the first value is kept"))
		must.True(t, c.Now().Equal(start.Add(2*time.Second)))
	})
}

// TestOrderAndSleep: timers fire in time order and Sleep wakes at its
// virtual instant.
func TestOrderAndSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New(start)
		var mu sync.Mutex
		var order []string
		var wg sync.WaitGroup
		for _, d := range []time.Duration{3 * time.Second, time.Second, 2 * time.Second} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.Sleep(d)
				mu.Lock()
				order = append(order, c.Since(start).String())
				mu.Unlock()
			}()
		}
		synctest.Wait()
		for i := 0; i < 3; i++ {
			c.Add(time.Second)
			synctest.Wait()
		}
		wg.Wait()
		must.Eq(t, []string{"1s", "2s", "3s"}, order)
	})
}

func TestAfterZeroNeedsAdd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New(start)
		ch := c.After(0)
		c.Add(0)
		synctest.Wait()
		<-ch
	})
}

func TestTickerAndTick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New(start)
		tk := c.Ticker(200 * time.Millisecond)
		defer tk.Stop()
		c.Add(200 * time.Millisecond)
		synctest.Wait()
		must.True(t, (<-tk.C).Equal(start.Add(200*time.Millisecond)))
		ch := c.Tick(time.Second)
		c.Add(time.Second)
		synctest.Wait()
		<-ch
		must.Panic(t, func() { c.Ticker(0) })
	})
}

func TestContexts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New(start)
		ctx, cancel := c.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c.Add(59 * time.Second)
		synctest.Wait()
		must.NoError(t, ctx.Err())
		c.Add(time.Second)
		synctest.Wait()
		<-ctx.Done()
		must.True(t, errors.Is(context.Cause(ctx), context.DeadlineExceeded))

		ctx2, cancel2 := c.WithDeadline(context.Background(), c.Now().Add(-time.Second))
		defer cancel2()
		<-ctx2.Done()

		ctx3, cancel3 := c.WithDeadline(context.Background(), c.Now().Add(time.Hour))
		cancel3()
		<-ctx3.Done()
		must.True(t, errors.Is(context.Cause(ctx3), context.Canceled))
		must.True(t, c.Mock() != nil)
		c.Set(start.Add(2 * time.Hour))
		must.EqOp(t, time.Hour, c.Until(start.Add(3*time.Hour)))
		c.AfterFunc(time.Second, func() {}).Stop()
	})
}
