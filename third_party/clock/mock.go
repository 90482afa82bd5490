package clock

import (
	"container/heap"
	"sync"
	"time"
)

// Mock represents a mock clock that only moves forward programmically.
// It can be preferable to a real-time clock when testing time-based functionality.
//
// Its timers and tickers are kept in a min-heap ordered by deadline, then
// by the order their deadlines were set (upstream re-sorts a slice on every
// fire and every stop, with an unstable sort); see README.md.
type Mock struct {
	// mu protects all other fields in this struct, and the data that they
	// point to.
	mu sync.Mutex

	now    time.Time // current time
	timers timerHeap // tickers & timers
	seq    uint64    // deadlines set so far: the tie-break of equal deadlines
}

// NewMock returns an instance of a mock clock.
// The current time of the mock clock on initialization is the Unix epoch.
func NewMock() *Mock {
	return &Mock{now: time.Unix(0, 0)}
}

// Add moves the current time of the mock clock forward by the specified duration.
// This should only be called from a single goroutine at a time.
func (m *Mock) Add(d time.Duration) {
	// Calculate the final current time.
	m.mu.Lock()
	t := m.now.Add(d)
	m.mu.Unlock()

	// Continue to execute timers until there are no more before the new time.
	for m.runNextTimer(t, true) {
	}

	// Ensure that we end with the new time.
	m.mu.Lock()
	m.now = t
	m.mu.Unlock()

	// Give a small buffer to make sure that other goroutines get handled.
	gosched()
}

// Set sets the current time of the mock clock to a specific one.
// This should only be called from a single goroutine at a time.
func (m *Mock) Set(t time.Time) {
	// Continue to execute timers until there are no more before the new time.
	for m.runNextTimer(t, true) {
	}

	// Ensure that we end with the new time.
	m.mu.Lock()
	m.now = t
	m.mu.Unlock()

	// Give a small buffer to make sure that other goroutines get handled.
	gosched()
}

// WaitForAllTimers sets the clock until all timers are expired
func (m *Mock) WaitForAllTimers() time.Time {
	// Continue to execute timers until there are no more
	for {
		m.mu.Lock()
		if len(m.timers) == 0 {
			m.mu.Unlock()
			return m.Now()
		}
		// Upstream sets the clock to the latest deadline.
		var next time.Time
		for _, t := range m.timers {
			if n := t.slot().next; n.After(next) {
				next = n
			}
		}
		m.mu.Unlock()
		m.Set(next)
	}
}

// Next returns the deadline of the earliest pending timer or ticker, and
// false if none is pending. (Not in upstream.)
func (m *Mock) Next() (time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.timers) == 0 {
		return time.Time{}, false
	}
	return m.timers[0].slot().next, true
}

// Pending returns the number of pending timers and tickers. (Not in
// upstream.)
func (m *Mock) Pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.timers)
}

// Fire runs the earliest pending timer or ticker if its deadline is not
// after max, moving the current time to that deadline, and reports whether
// it ran one. Unlike Add and Set it does not sleep after the fire: the
// caller decides how the fire's consequences settle. (Not in upstream.)
func (m *Mock) Fire(max time.Time) bool { return m.runNextTimer(max, false) }

// Jump moves the current time forward by d without running anything, as a
// host resuming from suspend sees it: every timer and ticker whose deadline
// fell before the new time becomes due at the new time, in the order of
// their deadlines, one nanosecond per distinct deadline apart (so that the
// order they run in is that of their original deadlines, and timers that
// shared a deadline share an instant again, their tie-break as before
// the jump), and the next Add
// or Fire runs each once; a ticker then skips the ticks it missed. A
// non-positive d does nothing. (Not in upstream.)
func (m *Mock) Jump(d time.Duration) {
	if d <= 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	resume := m.now.Add(d)
	var late []clockTimer
	for len(m.timers) > 0 && m.timers[0].slot().next.Before(resume) {
		late = append(late, heap.Pop(&m.timers).(clockTimer))
	}
	rank := -1
	var last time.Time
	for _, t := range late {
		if at := t.slot().next; rank < 0 || !at.Equal(last) {
			rank, last = rank+1, at
		}
		m.schedule(t, resume.Add(time.Duration(rank)))
	}
	m.now = resume
}

// runNextTimer executes the next timer in chronological order and moves the
// current time to the timer's next tick time. The next time is not executed if
// its next time is after the max time. Returns true if a timer was executed.
// pause sleeps after the timer ran, as upstream does.
func (m *Mock) runNextTimer(max time.Time, pause bool) bool {
	m.mu.Lock()

	// If we have no more timers then exit.
	if len(m.timers) == 0 {
		m.mu.Unlock()
		return false
	}

	// Retrieve next timer. Exit if next tick is after new time.
	t := m.timers[0]
	next := t.slot().next
	if next.After(max) {
		m.mu.Unlock()
		return false
	}

	// Move "now" forward and unlock clock.
	m.now = next
	m.mu.Unlock()

	// Execute timer.
	t.Tick(next)
	if pause {
		// a gosched() after ticking, to allow any consequences of the
		// tick to complete
		gosched()
	}
	return true
}

// schedule sets t's deadline and queues it (or moves it in the queue).
// m.mu MUST be held.
func (m *Mock) schedule(t clockTimer, next time.Time) {
	s := t.slot()
	s.next = next
	m.seq++
	s.seq = m.seq
	if s.index >= 0 && s.index < len(m.timers) && m.timers[s.index] == t {
		heap.Fix(&m.timers, s.index)
		return
	}
	heap.Push(&m.timers, t)
}

// removeClockTimer removes a timer from m.timers. m.mu MUST be held
// when this method is called.
func (m *Mock) removeClockTimer(t clockTimer) {
	s := t.slot()
	if s.index >= 0 && s.index < len(m.timers) && m.timers[s.index] == t {
		heap.Remove(&m.timers, s.index)
	}
	s.index = -1
}

// After waits for the duration to elapse and then sends the current time on the returned channel.
func (m *Mock) After(d time.Duration) <-chan time.Time {
	return m.Timer(d).C
}

// AfterFunc waits for the duration to elapse and then executes a function in its own goroutine.
// A Timer is returned that can be stopped.
func (m *Mock) AfterFunc(d time.Duration, f func()) *Timer {
	m.mu.Lock()
	defer m.mu.Unlock()
	ch := make(chan time.Time, 1)
	t := &Timer{
		c:    ch,
		fn:   f,
		mock: m,
		pos:  slot{index: -1},
	}
	m.schedule((*internalTimer)(t), m.now.Add(d))
	return t
}

// Now returns the current wall time on the mock clock.
func (m *Mock) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// Since returns time since `t` using the mock clock's wall time.
func (m *Mock) Since(t time.Time) time.Duration {
	return m.Now().Sub(t)
}

// Until returns time until `t` using the mock clock's wall time.
func (m *Mock) Until(t time.Time) time.Duration {
	return t.Sub(m.Now())
}

// Sleep pauses the goroutine for the given duration on the mock clock.
// The clock must be moved forward in a separate goroutine.
func (m *Mock) Sleep(d time.Duration) {
	<-m.After(d)
}

// Tick is a convenience function for Ticker().
// It will return a ticker channel that cannot be stopped.
func (m *Mock) Tick(d time.Duration) <-chan time.Time {
	return m.Ticker(d).C
}

// Ticker creates a new instance of Ticker.
func (m *Mock) Ticker(d time.Duration) *Ticker {
	m.mu.Lock()
	defer m.mu.Unlock()
	ch := make(chan time.Time, 1)
	t := &Ticker{
		C:    ch,
		c:    ch,
		mock: m,
		d:    d,
		pos:  slot{index: -1},
	}
	m.schedule((*internalTicker)(t), m.now.Add(d))
	return t
}

// Timer creates a new instance of Timer.
func (m *Mock) Timer(d time.Duration) *Timer {
	m.mu.Lock()
	ch := make(chan time.Time, 1)
	t := &Timer{
		C:    ch,
		c:    ch,
		mock: m,
		pos:  slot{index: -1},
	}
	m.schedule((*internalTimer)(t), m.now.Add(d))
	now := m.now
	m.mu.Unlock()
	m.runNextTimer(now, true)
	return t
}

var (
	// type checking
	_ Clock = &Mock{}
)
