package clock

import (
	"time"
)

// slot is a queued timer's deadline and place in the Mock's heap.
type slot struct {
	next  time.Time // next tick time
	seq   uint64    // when next was set, among the Mock's deadlines
	index int       // in the heap, -1 when not queued
}

// clockTimer represents an object with an associated start time.
type clockTimer interface {
	slot() *slot
	Tick(time.Time)
}

// timerHeap is a container/heap of timers ordered by deadline, then by
// the order the deadlines were set.
type timerHeap []clockTimer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	a, b := h[i].slot(), h[j].slot()
	if !a.next.Equal(b.next) {
		return a.next.Before(b.next)
	}
	return a.seq < b.seq
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].slot().index = i
	h[j].slot().index = j
}
func (h *timerHeap) Push(x any) {
	t := x.(clockTimer)
	t.slot().index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	n := len(old)
	t := old[n-1]
	old[n-1] = nil
	*h = old[:n-1]
	t.slot().index = -1
	return t
}

// Timer represents a single event.
// The current time will be sent on C, unless the timer was created by AfterFunc.
type Timer struct {
	C       <-chan time.Time
	c       chan time.Time
	timer   *time.Timer // realtime impl, if set
	pos     slot        // deadline and heap place (mock clock)
	mock    *Mock       // mock clock, if set
	fn      func()      // AfterFunc function, if set
	stopped bool        // True if stopped, false if running
}

// Stop turns off the ticker.
func (t *Timer) Stop() bool {
	if t.timer != nil {
		return t.timer.Stop()
	}

	t.mock.mu.Lock()
	registered := !t.stopped
	t.mock.removeClockTimer((*internalTimer)(t))
	t.stopped = true
	t.mock.mu.Unlock()
	return registered
}

// Reset changes the expiry time of the timer
func (t *Timer) Reset(d time.Duration) bool {
	if t.timer != nil {
		return t.timer.Reset(d)
	}

	t.mock.mu.Lock()
	defer t.mock.mu.Unlock()

	registered := !t.stopped
	t.mock.schedule((*internalTimer)(t), t.mock.now.Add(d))
	t.stopped = false
	return registered
}

type internalTimer Timer

func (t *internalTimer) slot() *slot { return &t.pos }
func (t *internalTimer) Tick(now time.Time) {
	t.mock.mu.Lock()
	if t.fn != nil {
		// defer function execution until the lock is released, and
		defer func() { go t.fn() }()
	} else {
		t.c <- now
	}
	t.mock.removeClockTimer((*internalTimer)(t))
	t.stopped = true
	t.mock.mu.Unlock()
}

// Ticker holds a channel that receives "ticks" at regular intervals.
type Ticker struct {
	C       <-chan time.Time
	c       chan time.Time
	ticker  *time.Ticker  // realtime impl, if set
	pos     slot          // next tick time and heap place (mock clock)
	mock    *Mock         // mock clock, if set
	d       time.Duration // time between ticks
	stopped bool          // True if stopped, false if running
}

// Stop turns off the ticker.
func (t *Ticker) Stop() {
	if t.ticker != nil {
		t.ticker.Stop()
	} else {
		t.mock.mu.Lock()
		t.mock.removeClockTimer((*internalTicker)(t))
		t.stopped = true
		t.mock.mu.Unlock()
	}
}

// Reset resets the ticker to a new duration.
func (t *Ticker) Reset(dur time.Duration) {
	if t.ticker != nil {
		t.ticker.Reset(dur)
		return
	}

	t.mock.mu.Lock()
	defer t.mock.mu.Unlock()

	t.stopped = false
	t.d = dur
	t.mock.schedule((*internalTicker)(t), t.mock.now.Add(dur))
}

type internalTicker Ticker

func (t *internalTicker) slot() *slot { return &t.pos }
func (t *internalTicker) Tick(now time.Time) {
	select {
	case t.c <- now:
	default:
	}
	t.mock.mu.Lock()
	// A ticker stopped meanwhile stays stopped.
	if !t.stopped {
		t.mock.schedule(t, now.Add(t.d))
	}
	t.mock.mu.Unlock()
}

// Sleep momentarily so that other goroutines can process.
func gosched() { time.Sleep(1 * time.Millisecond) }
