package taskrunner

// chanLock is a mutex made of a channel of capacity one: Lock sends,
// Unlock receives. The runner uses it, never a sync.Mutex, for every
// section that makes an injected call (a state DB write; DET-3): a
// simulator may hold such a call at its gate and release it later
// (DESIGN.md "Steps"), and a goroutine waiting for a chanLock is durably
// blocked for testing/synctest, where one waiting for a sync.Mutex is not,
// so the simulator's settle (synctest.Wait) still returns while another
// goroutine waits for the section.
//
// Waiters get the lock in the order they started waiting (a full
// channel's senders queue first in, first out, and Unlock hands the slot
// to the first of them), so contended sections run in arrival order, not
// in an order the runtime picks. The zero value is not usable: build it
// with newChanLock.
type chanLock chan struct{}

func newChanLock() chanLock { return make(chanLock, 1) }

// Lock acquires the lock, waiting for it if held.
func (l chanLock) Lock() { l <- struct{}{} }

// Unlock releases the lock; it must be held.
func (l chanLock) Unlock() { <-l }
