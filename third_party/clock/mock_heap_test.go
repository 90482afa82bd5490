package clock

import (
	"math/rand"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"
)

// The tests of what this fork adds to upstream: the heap's order and the
// exported queue (Next, Pending, Fire, Jump).

// TestHeapOrderMatchesNaive drives the Mock and a naive model (a slice
// sorted stably by deadline, ties in the order deadlines were set) with
// the same random timers, resets, stops and tickers, and checks that
// they fire in the same order at the same instants.
func TestHeapOrderMatchesNaive(t *testing.T) {
	for seed := int64(1); seed <= 200; seed++ {
		r := rand.New(rand.NewSource(seed))
		m := NewMock()
		type naive struct {
			id     int
			next   time.Time
			seq    int
			period time.Duration // 0 for a timer
			live   bool
		}
		var model []*naive
		var seq int
		var mu sync.Mutex
		var got []int
		var timers []*Timer
		var tickers []*Ticker
		set := func(n *naive, at time.Time) { seq++; n.next, n.seq, n.live = at, seq, true }
		for op := 0; op < 60; op++ {
			now := m.Now()
			switch k := r.Intn(6); {
			case k <= 1: // a timer (AfterFunc, fired synchronously below)
				id := len(model)
				d := time.Duration(r.Intn(5)) * time.Second
				n := &naive{id: id}
				model = append(model, n)
				set(n, now.Add(d))
				tm := m.AfterFunc(d, func() {})
				tm.fn = nil // fire through the channel path instead: record below
				tm.c = make(chan time.Time, 1000)
				timers = append(timers, tm)
				tickers = append(tickers, nil)
			case k == 2 && len(model) > 0: // reset one
				i := r.Intn(len(model))
				d := time.Duration(r.Intn(5)+1) * time.Second
				set(model[i], now.Add(d))
				if model[i].period > 0 {
					model[i].period = d
					tickers[i].Reset(d)
				} else {
					timers[i].Reset(d)
				}
			case k == 3 && len(model) > 0: // stop one
				i := r.Intn(len(model))
				model[i].live = false
				if model[i].period > 0 {
					tickers[i].Stop()
				} else {
					timers[i].Stop()
				}
			case k == 4: // a ticker
				id := len(model)
				d := time.Duration(r.Intn(3)+1) * time.Second
				n := &naive{id: id, period: d}
				model = append(model, n)
				set(n, now.Add(d))
				tk := m.Ticker(d)
				tk.c = make(chan time.Time, 1000)
				timers = append(timers, nil)
				tickers = append(tickers, tk)
			default: // advance, firing one at a time through Fire
				target := now.Add(time.Duration(r.Intn(4)) * time.Second)
				var want []int
				for {
					var live []*naive
					for _, n := range model {
						if n.live && !n.next.After(target) {
							live = append(live, n)
						}
					}
					if len(live) == 0 {
						break
					}
					sort.SliceStable(live, func(a, b int) bool {
						if !live[a].next.Equal(live[b].next) {
							return live[a].next.Before(live[b].next)
						}
						return live[a].seq < live[b].seq
					})
					n := live[0]
					want = append(want, n.id)
					if n.period > 0 {
						set(n, n.next.Add(n.period))
					} else {
						n.live = false
					}
				}
				got = got[:0]
				for {
					next, ok := m.Next()
					if !ok || next.After(target) {
						break
					}
					// which one is due: the heap's top
					top := m.timers[0]
					id := -1
					for i := range model {
						if (timers[i] != nil && top == clockTimer((*internalTimer)(timers[i]))) ||
							(tickers[i] != nil && top == clockTimer((*internalTicker)(tickers[i]))) {
							id = i
						}
					}
					if !m.Fire(target) {
						t.Fatalf("seed %d: Next said %v is due but Fire ran nothing", seed, next)
					}
					mu.Lock()
					got = append(got, id)
					mu.Unlock()
				}
				m.Jump(target.Sub(m.Now()))
				if len(got) != len(want) {
					t.Fatalf("seed %d op %d: fired %v, want %v", seed, op, got, want)
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("seed %d op %d: fired %v, want %v", seed, op, got, want)
					}
				}
			}
			live := 0
			for _, n := range model {
				if n.live {
					live++
				}
			}
			if p := m.Pending(); p != live {
				t.Fatalf("seed %d op %d: Pending() = %d, want %d", seed, op, p, live)
			}
		}
	}
}

// TestJump: a jump runs nothing; the overdue timers become due at the new
// time in the order of their deadlines, one nanosecond per distinct
// deadline apart (equal deadlines share an instant); a ticker
// fires once, then keeps its period from there.
func TestJump(t *testing.T) {
	m := NewMock()
	start := m.Now()
	var order []string
	var mu sync.Mutex
	rec := func(s string) func() {
		return func() { mu.Lock(); order = append(order, s); mu.Unlock() }
	}
	m.AfterFunc(3*time.Second, rec("c"))
	m.AfterFunc(time.Second, rec("a"))
	m.AfterFunc(2*time.Second, rec("b"))
	m.AfterFunc(2*time.Second, rec("b2"))
	m.AfterFunc(time.Hour, rec("late"))
	tk := m.Ticker(500 * time.Millisecond)
	m.Jump(10 * time.Second)
	if got := m.Now(); !got.Equal(start.Add(10 * time.Second)) {
		t.Fatalf("now = %v after the jump", got)
	}
	select {
	case <-tk.C:
		t.Fatal("the jump ran the ticker")
	default:
	}
	resume := start.Add(10 * time.Second)
	// ticker first (deadline 0.5 s), then a, b and b2 (one instant), c
	for i, rank := range []int{0, 1, 2, 2, 3} {
		next, ok := m.Next()
		if want := resume.Add(time.Duration(rank)); !ok || !next.Equal(want) {
			t.Fatalf("overdue timer %d due at %v, want %v", i, next, want)
		}
		if !m.Fire(resume.Add(time.Second)) {
			t.Fatal("Fire ran nothing")
		}
		time.Sleep(time.Millisecond) // let the AfterFunc goroutine record
	}
	mu.Lock()
	got := append([]string(nil), order...)
	mu.Unlock()
	if !slices.Equal(got, []string{"a", "b", "b2", "c"}) {
		t.Fatalf("fired %v, want [a b b2 c]", got)
	}
	<-tk.C
	next, _ := m.Next()
	if want := resume.Add(500 * time.Millisecond); !next.Equal(want) {
		t.Fatalf("the ticker's next tick is %v, want %v (its period from the resumed tick)", next, want)
	}
	if m.Fire(resume) {
		t.Fatal("Fire ran a timer due after max")
	}
	before := m.Now()
	m.Jump(0)
	m.Jump(-time.Second)
	if !m.Now().Equal(before) {
		t.Fatal("a non-positive jump moved the clock")
	}
}

// TestStopRemovesFromQueue: Stop and a fire take a timer out of the queue;
// Reset of a fired timer queues it again; Next and Pending follow.
func TestStopRemovesFromQueue(t *testing.T) {
	m := NewMock()
	if _, ok := m.Next(); ok || m.Pending() != 0 {
		t.Fatal("a new Mock has something queued")
	}
	a := m.AfterFunc(time.Second, func() {})
	b := m.AfterFunc(2*time.Second, func() {})
	if m.Pending() != 2 {
		t.Fatalf("Pending() = %d, want 2", m.Pending())
	}
	if !a.Stop() || a.Stop() {
		t.Fatal("Stop reported wrongly")
	}
	next, _ := m.Next()
	if !next.Equal(m.Now().Add(2 * time.Second)) {
		t.Fatalf("next = %v after stopping the first", next)
	}
	m.Add(2 * time.Second)
	if m.Pending() != 0 {
		t.Fatalf("Pending() = %d after the fire", m.Pending())
	}
	if b.Reset(time.Second) {
		t.Fatal("Reset of a fired timer reported it was registered")
	}
	if m.Pending() != 1 {
		t.Fatal("Reset did not queue the fired timer again")
	}
}
