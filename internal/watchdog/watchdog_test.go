package watchdog

import (
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

func TestStall(t *testing.T) {
	for _, tc := range []struct {
		flag, env string
		setEnv    bool
		d, want   time.Duration
		err       bool
	}{
		{d: 0, want: DefaultStall},
		{d: 3 * time.Second, want: 3 * time.Second},
		{d: -1, want: 0},
		{env: "2s", setEnv: true, d: 5 * time.Second, want: 2 * time.Second},
		{env: "0", setEnv: true, d: 5 * time.Second, want: 0},
		{flag: "1s", env: "2s", setEnv: true, want: time.Second},
		{flag: "0", d: time.Second, want: 0},
		{flag: "soon", err: true},
		{env: "-1s", setEnv: true, err: true},
	} {
		old := *stallFlag
		*stallFlag = tc.flag
		if tc.setEnv {
			t.Setenv(EnvStall, tc.env)
		} else {
			t.Setenv(EnvStall, "")
		}
		got, err := Stall(tc.d)
		*stallFlag = old
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("Stall(%v) with flag %q, env %q = %v, %v; want %v, error %v", tc.d, tc.flag, tc.env, got, err, tc.want, tc.err)
		}
	}
}

// TestStartStalls: a run that is active and makes no progress stalls.
func TestStartStalls(t *testing.T) {
	fired := make(chan struct{})
	stop := Start(20*time.Millisecond, func() (uint64, bool) { return 7, true }, func() { close(fired) })
	<-fired
	stop()
}

// TestStartQuiet: a run that makes progress, or is not active, does not
// stall, however many stall periods pass (counted in polls, not time).
func TestStartQuiet(t *testing.T) {
	for _, name := range []string{"progress", "inactive"} {
		t.Run(name, func(t *testing.T) {
			var polls atomic.Uint64
			enough := make(chan struct{})
			probe := func() (uint64, bool) {
				n := polls.Add(1)
				if n == 5*pollsPerStall {
					close(enough)
				}
				if name == "progress" {
					return n, true
				}
				return 0, false
			}
			var stalled atomic.Bool
			stop := Start(10*time.Millisecond, probe, func() { stalled.Store(true) })
			<-enough
			stop()
			if stalled.Load() {
				t.Fatal("the watchdog stalled a run that was not stuck")
			}
		})
	}
}

func TestStartOff(t *testing.T) {
	Start(0, func() (uint64, bool) { panic("probed") }, func() { panic("stalled") })()
}

func TestWithin(t *testing.T) {
	if !Within(time.Minute, func() {}) {
		t.Error("Within = false for a function that returns")
	}
	block := make(chan struct{})
	defer close(block)
	if Within(time.Millisecond, func() { <-block }) {
		t.Error("Within = true for a function that blocks")
	}
}

// TestGoroutines reads a real dump: inside a bubble, a goroutine waiting
// for a sync.Mutex is the bubble's, not durable and a lock wait; one
// waiting on a channel of the bubble is durable; the caller's goroutine is
// outside the bubble.
func TestGoroutines(t *testing.T) {
	if b := Bubble(); b != 0 {
		t.Fatalf("Bubble() outside a bubble = %d, want 0", b)
	}
	synctest.Test(t, func(t *testing.T) {
		id := Bubble()
		if id == 0 {
			t.Fatal("Bubble() inside a bubble = 0")
		}
		var mu sync.Mutex
		n := 0
		mu.Lock()
		ch := make(chan struct{})
		go func() { mu.Lock(); n++; mu.Unlock() }()
		go func() { <-ch }()
		var lock, durable *Goroutine
		for lock == nil || durable == nil {
			runtime.Gosched() // not synctest.Wait: the lock waiter would keep it from returning
			lock, durable = nil, nil
			for _, g := range Goroutines(Dump(), id) {
				switch {
				case g.LockWait() && !g.Durable():
					lock = &g
				case g.Reason() == "chan receive (durable)":
					durable = &g
				}
			}
		}
		if !strings.Contains(lock.Stack, "sync.(*Mutex).Lock") || !strings.HasPrefix(lock.Status, "sync.Mutex.Lock, synctest bubble ") {
			t.Errorf("lock waiter = %+v", *lock)
		}
		if !durable.Durable() || durable.LockWait() {
			t.Errorf("channel waiter = %+v", *durable)
		}
		if gs := Goroutines(Dump(), id+1000); len(gs) != 0 {
			t.Errorf("goroutines of another bubble: %v", gs)
		}
		mu.Unlock()
		close(ch)
	})
}

func TestParseHeader(t *testing.T) {
	for _, tc := range []struct {
		h      string
		id     int
		status string
		bubble uint64
	}{
		{"goroutine 12 [sync.Mutex.Lock, synctest bubble 3]:", 12, "sync.Mutex.Lock, synctest bubble 3", 3},
		{"goroutine 7 gp=0xc000 m=nil [chan receive (durable), synctest bubble 41 labels:{\"a\": \"b\"}]:", 7,
			"chan receive (durable), synctest bubble 41 labels:{\"a\": \"b\"}", 41},
		{"goroutine 1 [running]:", 1, "running", 0},
		{"created by main.main in goroutine 1", 0, "", 0},
	} {
		id, status := parseHeader(tc.h)
		if id != tc.id || status != tc.status || bubbleOf(status) != tc.bubble {
			t.Errorf("parseHeader(%q) = %d, %q (bubble %d); want %d, %q (bubble %d)",
				tc.h, id, status, bubbleOf(status), tc.id, tc.status, tc.bubble)
		}
	}
}

// TestEntry: Entry names the watchdog's goroutine as the runtime does.
func TestEntry(t *testing.T) {
	if got := runtime.FuncForPC(reflect.ValueOf(watch).Pointer()).Name(); got != Entry {
		t.Fatalf("Entry = %q, want %q", Entry, got)
	}
}
