package bubbletime

import (
	"testing"
	"testing/synctest"
	"time"
)

// TestUntil: Until sleeps to t when nothing nudges, returns at once when
// the bubble is at or past t, ignores a nudge made before it waited, and
// stops at the instant of a nudge made while it waits, after the
// nudging goroutine has settled.
func TestUntil(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := NewWaiter()
		start := time.Now()
		if got := w.Until(start.Add(time.Second)); !got.Equal(start.Add(time.Second)) {
			t.Fatalf("no nudge: reached %v, want %v", got, start.Add(time.Second))
		}
		now := time.Now()
		if got := w.Until(now); !got.Equal(now) {
			t.Fatalf("at t: reached %v, want %v", got, now)
		}
		w.Nudge() // stale: the bubble is already at this instant
		if got := w.Until(now.Add(time.Second)); !got.Equal(now.Add(time.Second)) {
			t.Fatalf("stale nudge: reached %v, want %v", got, now.Add(time.Second))
		}
		now = time.Now()
		settled := false
		go func() {
			time.Sleep(300 * time.Millisecond)
			w.Nudge()
			time.Sleep(0) // still running at the nudge's instant
			settled = true
		}()
		if got := w.Until(now.Add(time.Second)); !got.Equal(now.Add(300 * time.Millisecond)) {
			t.Fatalf("nudge: reached %v, want %v", got, now.Add(300*time.Millisecond))
		}
		if !settled {
			t.Fatal("Until returned before the nudging goroutine settled")
		}
		if got := w.Until(now.Add(time.Second)); !got.Equal(now.Add(time.Second)) {
			t.Fatalf("after a nudge: reached %v, want %v", got, now.Add(time.Second))
		}
	})
}
