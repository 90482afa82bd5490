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

// A sync loop may park: stop its ticker while the buffer is empty and
// start it again when an update arrives, instead of ticking every 200 ms
// with nothing to send (SYNC-3; SPEC-NOTES "Parked sync ticker"). Its
// counter n still counts the 200 ms periods since the last re-phase,
// whether the ticker ran or was parked: the ticks a running ticker would
// have fired meanwhile, each of which would only have incremented n (the
// buffer was empty), are added on waking (Buffer.Slept), and the ticker
// resumes on the phase it would have kept.

// ParkedTicks returns how many ticks a parked sync ticker missed and when
// its next tick is due: next is the instant the ticker's next tick was
// due when it parked; a tick fires there and then every TickInterval (a
// tick after a longer period, a retry delay, re-phases the ticker to
// TickInterval, SYNC-3). A tick due at now itself counts as fired: the
// update that woke the loop is taken to have arrived after it.
func ParkedTicks(next, now time.Time) (missed uint64, due time.Time) {
	if now.Before(next) {
		return 0, next
	}
	missed = uint64(now.Sub(next)/TickInterval) + 1
	return missed, next.Add(time.Duration(missed) * TickInterval)
}

// Slept adds the ticks a parked loop missed to the tick counter
// (ParkedTicks): each would have found the buffer empty, so incremented n
// and held.
func (b *Buffer) Slept(missed uint64) { b.n += missed }
