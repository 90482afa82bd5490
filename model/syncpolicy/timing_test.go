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
