package syncpolicy

import (
	"math"
	"time"
)

// Sync loop timing (SYNC-3, SYNC-4).
const (
	// TickInterval is the sync ticker period (SYNC-3).
	TickInterval = 200 * time.Millisecond
	// FullSyncEvery is the tick modulus: without an Urgent entry the
	// buffer is sent only when the counter is a multiple of it (SYNC-3).
	FullSyncEvery = 5
	// RetryBase is the fixed part of the delay after a failed RPC (SYNC-3).
	RetryBase = 5 * time.Second
	// RetryJitter is the width of the uniform part of that delay (SYNC-3).
	RetryJitter = 5 * time.Second
	// CommitWindow is how long the server collects Node.UpdateAlloc
	// calls before committing them as one log entry (SYNC-4).
	CommitWindow = 50 * time.Millisecond
)

// RetryDelay is the SYNC-3 delay before the tick that retries a failed
// batch: RetryBase + u×RetryJitter, for u drawn uniformly from [0, 1) by
// the injected source (rand.Float64). u is clamped into [0, 1), NaN to 0, so
// the delay always lies in [5 s, 10 s).
func RetryDelay(u float64) time.Duration {
	switch {
	case math.IsNaN(u) || u < 0:
		u = 0
	case u >= 1:
		return RetryBase + RetryJitter - 1
	}
	// min guards u just below 1 rounding up to a whole RetryJitter.
	return min(RetryBase+time.Duration(u*float64(RetryJitter)), RetryBase+RetryJitter-1)
}
