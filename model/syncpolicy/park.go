package syncpolicy

import "time"

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
