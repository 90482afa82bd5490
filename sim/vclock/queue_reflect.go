package vclock

import (
	"errors"
	"reflect"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/benbjohnson/clock"
)

// reflectQueue is the queue of an upstream *clock.Mock
// (github.com/benbjohnson/clock v1.3.5, archived), which does not export
// it: the fallback when a build does not have the fork (queue.go). It
// reads the unexported fields mu (sync.Mutex) and timers (a slice of
// values with a Next() time.Time method, each a pointer to a struct with a
// next time.Time field) by reflection. newReflectQueue checks that shape,
// so a library change fails loudly when the clock is built, not silently.
// Each next scans every timer, and the Mock re-sorts them on every fire:
// correct, and slower the more timers are armed.
type reflectQueue struct {
	mu     *sync.Mutex
	now    reflect.Value // time.Time
	timers reflect.Value // clockTimers
}

var errMockShape = errors.New("vclock: clock.Mock internals are not those of github.com/benbjohnson/clock v1.3.5 or of its fork")

// nexter is the method every queued Mock timer has.
type nexter interface{ Next() time.Time }

// accessible returns an addressable, settable view of an unexported field.
func accessible(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

func newReflectQueue(m *clock.Mock) (*reflectQueue, error) {
	v := reflect.ValueOf(m).Elem()
	mu, now, timers := v.FieldByName("mu"), v.FieldByName("now"), v.FieldByName("timers")
	if !mu.IsValid() || mu.Type() != reflect.TypeFor[sync.Mutex]() ||
		!now.IsValid() || now.Type() != reflect.TypeFor[time.Time]() ||
		!timers.IsValid() || timers.Kind() != reflect.Slice ||
		!timers.Type().Elem().Implements(reflect.TypeFor[nexter]()) {
		return nil, errMockShape
	}
	return &reflectQueue{
		mu:     (*sync.Mutex)(unsafe.Pointer(mu.UnsafeAddr())),
		now:    accessible(now),
		timers: accessible(timers),
	}, nil
}

// next returns the earliest deadline in the queue, false if it is empty.
// Call it only when every other goroutine is blocked (after
// synctest.Wait): the Mock's lock is taken all the same.
func (q *reflectQueue) next() (time.Time, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var min time.Time
	found := false
	for i := 0; i < q.timers.Len(); i++ {
		n := q.timers.Index(i).Interface().(nexter).Next()
		if !found || n.Before(min) {
			min, found = n, true
		}
	}
	return min, found
}

// len is the number of queued timers and tickers.
func (q *reflectQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.timers.Len()
}

// suspend moves the Mock's time forward by d without firing anything and
// makes every timer that fell due meanwhile due at the new instant, in
// the order of their original deadlines, one nanosecond per distinct
// deadline apart: timers that shared a deadline share an instant again,
// ordered as any same-instant timers are. The next Add fires
// each once; tickers skip the ticks they missed. Call it only between
// steps, after synctest.Wait.
func (q *reflectQueue) suspend(d time.Duration) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	resume := q.now.Interface().(time.Time).Add(d)
	type overdue struct {
		next reflect.Value
		at   time.Time
	}
	var late []overdue
	for i := 0; i < q.timers.Len(); i++ {
		ptr := q.timers.Index(i).Elem() // *internalTimer or *internalTicker
		if ptr.Kind() != reflect.Pointer || ptr.Elem().Kind() != reflect.Struct {
			return errMockShape
		}
		next := ptr.Elem().FieldByName("next")
		if !next.IsValid() || next.Type() != reflect.TypeFor[time.Time]() {
			return errMockShape
		}
		next = accessible(next)
		if at := next.Interface().(time.Time); at.Before(resume) {
			late = append(late, overdue{next, at})
		}
	}
	slices.SortStableFunc(late, func(a, b overdue) int { return a.at.Compare(b.at) })
	rank := -1
	for i, o := range late {
		if i == 0 || !o.at.Equal(late[i-1].at) {
			rank++
		}
		o.next.Set(reflect.ValueOf(resume.Add(time.Duration(rank))))
	}
	q.now.Set(reflect.ValueOf(resume))
	return nil
}
