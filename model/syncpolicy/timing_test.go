package syncpolicy

import (
	"math"
	"testing"
	"time"

	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

// TestSYNC3_Constants pins the SPEC's numbers.
func TestSYNC3_Constants(t *testing.T) {
	must.Eq(t, 200*time.Millisecond, TickInterval)
	must.Eq(t, 5, FullSyncEvery)
	must.Eq(t, 5*time.Second, RetryBase)
	must.Eq(t, 5*time.Second, RetryJitter)
	must.Eq(t, 50*time.Millisecond, CommitWindow) // SYNC-4
}

// TestSYNC3_RetryDelay: 5 s + u×5 s.
func TestSYNC3_RetryDelay(t *testing.T) {
	cases := []struct {
		u    float64
		want time.Duration
	}{
		{0, 5 * time.Second},
		{0.5, 7500 * time.Millisecond},
		{0.25, 6250 * time.Millisecond},
		{math.Nextafter(1, 0), 10*time.Second - 1},
		{1, 10*time.Second - 1},
		{7, 10*time.Second - 1},
		{-0.5, 5 * time.Second},
		{math.NaN(), 5 * time.Second},
	}
	for _, tc := range cases {
		must.Eq(t, tc.want, RetryDelay(tc.u), must.Sprintf("RetryDelay(%v)", tc.u))
	}
}

// TestSYNC3_RetryDelayRange: every u in [0,1) gives a delay in [5 s, 10 s),
// monotone in u.
func TestSYNC3_RetryDelayRange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := rapid.Float64Range(0, 1).Draw(t, "u")
		v := rapid.Float64Range(0, 1).Draw(t, "v")
		d := RetryDelay(u)
		if d < 5*time.Second || d >= 10*time.Second {
			t.Fatalf("RetryDelay(%v) = %v, want in [5s, 10s)", u, d)
		}
		if u <= v && d > RetryDelay(v) {
			t.Fatalf("RetryDelay(%v) = %v > RetryDelay(%v) = %v", u, d, v, RetryDelay(v))
		}
	})
}

// TestParkedTicks: the ticks a parked ticker missed, and its next one.
func TestParkedTicks(t *testing.T) {
	t0 := time.Date(2024, 6, 14, 0, 0, 0, 0, time.UTC)
	ms := time.Millisecond
	for _, tt := range []struct {
		name    string
		next    time.Time // the tick due when it parked
		now     time.Time
		missed  uint64
		nextDue time.Time
	}{
		{"woken before its tick", t0.Add(200 * ms), t0.Add(150 * ms), 0, t0.Add(200 * ms)},
		{"woken at its tick: the tick counts as fired", t0.Add(200 * ms), t0.Add(200 * ms), 1, t0.Add(400 * ms)},
		{"just after", t0.Add(200 * ms), t0.Add(201 * ms), 1, t0.Add(400 * ms)},
		{"a minute parked", t0.Add(200 * ms), t0.Add(time.Minute + 50*ms), 300, t0.Add(time.Minute + 200*ms)},
		{"after a retry delay the period is 200 ms", t0.Add(7300 * ms), t0.Add(8000 * ms), 4, t0.Add(8100 * ms)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			missed, due := ParkedTicks(tt.next, tt.now)
			if missed != tt.missed || !due.Equal(tt.nextDue) {
				t.Fatalf("ParkedTicks(%v, %v) = %d, %v; want %d, %v", tt.next, tt.now, missed, due, tt.missed, tt.nextDue)
			}
			if !due.After(tt.now) {
				t.Fatalf("next tick %v is not after now %v", due, tt.now)
			}
		})
	}
	var b Buffer
	b.Tick(TickInput{})
	b.Slept(4)
	if b.N() != 5 {
		t.Fatalf("n = %d after a tick and 4 missed ones, want 5", b.N())
	}
}
