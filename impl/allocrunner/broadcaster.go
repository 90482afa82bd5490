package allocrunner

import (
	"sync"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// broadcaster fans computed client allocs out to listeners. Each listener
// holds at most one alloc, the newest: a send replaces an unread one, so
// a slow reader never blocks the runner. A new listener first receives the
// newest alloc sent so far. Values are shared between listeners and must
// be treated as read-only.
type broadcaster struct {
	mu   sync.Mutex
	last *structs.Allocation
	// shared: last is the listeners' copy; until one needs it, last is
	// the alloc as sent (send's caller keeps no reference it changes).
	shared    bool
	listeners map[*listener]struct{}
	closed    bool
}

// share makes last the listeners' own copy, once per alloc sent, with
// b.mu held.
func (b *broadcaster) share() {
	if !b.shared && b.last != nil {
		b.last, b.shared = b.last.Copy(), true
	}
}

func newBroadcaster() *broadcaster {
	return &broadcaster{listeners: map[*listener]struct{}{}}
}

type listener struct {
	b    *broadcaster
	ch   chan *structs.Allocation
	once sync.Once
}

var _ interfaces.AllocListener = (*listener)(nil)

func (l *listener) Ch() <-chan *structs.Allocation { return l.ch }

// Close unsubscribes, drops an unread alloc and closes Ch.
func (l *listener) Close() {
	l.b.mu.Lock()
	defer l.b.mu.Unlock()
	delete(l.b.listeners, l)
	l.once.Do(func() {
		select {
		case <-l.ch:
		default:
		}
		close(l.ch)
	})
}

func (b *broadcaster) listen() *listener {
	b.mu.Lock()
	defer b.mu.Unlock()
	l := &listener{b: b, ch: make(chan *structs.Allocation, 1)}
	if b.closed {
		l.once.Do(func() { close(l.ch) })
		return l
	}
	if b.last != nil {
		b.share()
		l.ch <- b.last
	}
	b.listeners[l] = struct{}{}
	return l
}

// send delivers a copy of a to every listener, replacing an unread older
// alloc. a becomes the broadcaster's: the caller must not change it
// afterwards. The copy is made only when a listener needs it, so a runner
// nobody listens to copies nothing.
func (b *broadcaster) send(a *structs.Allocation) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.last, b.shared = a, false
	if len(b.listeners) == 0 {
		return
	}
	b.share()
	for l := range b.listeners {
		select {
		case <-l.ch:
		default:
		}
		l.ch <- b.last
	}
}

// close closes every listener's Ch; later listeners get a closed Ch.
func (b *broadcaster) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	for l := range b.listeners {
		l.once.Do(func() { close(l.ch) })
	}
	clear(b.listeners)
}
