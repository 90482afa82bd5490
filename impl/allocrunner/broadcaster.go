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
	mu        sync.Mutex
	last      *structs.Allocation
	listeners map[*listener]struct{}
	closed    bool
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
		l.ch <- b.last
	}
	b.listeners[l] = struct{}{}
	return l
}

// send delivers a to every listener, replacing an unread older alloc.
func (b *broadcaster) send(a *structs.Allocation) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.last = a
	for l := range b.listeners {
		select {
		case <-l.ch:
		default:
		}
		l.ch <- a
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
