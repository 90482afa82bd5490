package hookrestest

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// Sizes of the concurrent checks: enough goroutines and operations for
// the race detector and for a non-atomic set to show, small enough to stay
// well under a second with -race on two cores.
const (
	concurrentWriters = 8
	concurrentReaders = 8
	concurrentRounds  = 200
	atomicWriters     = 4
	atomicReaders     = 4
	atomicRounds      = 400 // sets per writer and round
	atomicPoolSize    = 24  // pool[i] has i+1 entries
	atomicAttempts    = 4
	shownViolations   = 3
)

// isPoolMap reports whether m is exactly one of pool, whose i-th map has
// i+1 entries (or the empty map, when empty is allowed).
func isPoolMap(pool []mounts, m mounts, empty bool) bool {
	switch n := len(m); {
	case n == 0:
		return empty && m != nil
	case n > len(pool):
		return false
	default:
		return equal(m, pool[n-1])
	}
}

// poolMap is the i-th complete map of a pool: i+1 entries "a", "b", ...,
// every source naming i, so maps differ in size and in every entry (and
// the fixture mutations, which target "a" and "b", change each).
func poolMap(i int) mounts {
	m := make(mounts, i+1)
	for k := range i + 1 {
		m[string(rune('a'+k))] = &interfaces.CSIMountPoint{Source: fmt.Sprintf("/mnt/%d/%d", i, k), IsDevice: k%2 == 1}
	}
	return m
}

// violations collects the bad reads of goroutines: a count and the first
// few, in the order they were seen.
type violations struct {
	mu    sync.Mutex
	n     int
	shown []string // distinct messages
}

func (v *violations) add(format string, args ...any) {
	v.addf(func() string { return fmt.Sprintf(format, args...) })
}

// addf counts a violation and renders it only while more are shown, so
// that a store failing on every read does not slow the check down.
func (v *violations) addf(msg func() string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.n++
	if len(v.shown) < shownViolations {
		if m := msg(); !slices.Contains(v.shown, m) {
			v.shown = append(v.shown, m)
		}
	}
}

// report adds the collected violations to r.
func (v *violations) report(r *report) {
	for _, s := range v.shown {
		r.add("%s", s)
	}
	if v.n > len(v.shown) {
		r.add("(%d violations in all)", v.n)
	}
}

// guard runs f, turning a panic into a violation.
func (v *violations) guard(who string, f func()) {
	defer func() {
		if p := recover(); p != nil {
			v.add("%s: panic: %v", who, p)
		}
	}()
	f()
}

// checkConcurrent: writers set fresh maps and then mutate what they passed,
// readers get and mutate what they got, all at once. Every read is the
// empty map or one complete map that was set, nothing panics, and the map
// left is some writer's last set (HOOKRES-4). Under -race this is where a
// store without a lock is caught (HOOKRES-1).
func checkConcurrent(newStore func() Store) error {
	r := &report{}
	pool := make([]mounts, concurrentWriters)
	for i := range pool {
		pool[i] = poolMap(i)
	}
	mutations := append(append([]mutation{}, mapMutations...), pointMutations...)

	s := newStore()
	v := &violations{}
	last := make([]int, concurrentWriters) // each writer's last pool index
	start := make(chan struct{})
	var wg sync.WaitGroup
	for w := range concurrentWriters {
		wg.Go(func() {
			<-start
			v.guard(fmt.Sprintf("writer %d", w), func() {
				for i := range concurrentRounds {
					p := (w + i) % len(pool)
					arg := deepCopy(pool[p])
					s.SetCSIMounts(arg)
					last[w] = p
					mutations[i%len(mutations)].apply(arg)
				}
			})
		})
	}
	for rd := range concurrentReaders {
		wg.Go(func() {
			<-start
			v.guard(fmt.Sprintf("reader %d", rd), func() {
				for i := range concurrentRounds {
					got := s.GetCSIMounts()
					if got == nil {
						v.add("GetCSIMounts() during concurrent sets and gets = nil, want never nil")
						continue
					}
					if !isPoolMap(pool, got, true) {
						v.addf(func() string {
							return fmt.Sprintf("GetCSIMounts() during concurrent sets and gets = %s, want the empty map or one complete map that was set", format(got))
						})
					}
					mutations[i%len(mutations)].apply(got)
				}
			})
		})
	}
	close(start)
	wg.Wait()
	v.report(r)

	final := s.GetCSIMounts()
	lastSets := map[string]bool{}
	for _, p := range last {
		lastSets[format(pool[p])] = true
	}
	if !lastSets[format(final)] {
		r.add("GetCSIMounts() after the concurrent sets = %s, want one writer's last set", format(final))
	}
	return r.err()
}

// checkAtomicReads: with pool[0] set, writers keep setting maps of 1 to
// atomicPoolSize entries while readers read; every read must be exactly
// one of those maps, never a prefix, a mix or a merge of several
// (HOOKRES-2 "replaces the map atomically", HOOKRES-4 "never a partial
// one"). A round that finds nothing is repeated, up to atomicAttempts
// rounds, since whether a reader lands inside a non-atomic set is up to
// the scheduler (and needs two processors: GOMAXPROCS=1 almost never
// preempts a set halfway).
func checkAtomicReads(newStore func() Store) error {
	pool := make([]mounts, atomicPoolSize)
	for i := range pool {
		pool[i] = poolMap(i)
	}
	for range atomicAttempts {
		if err := atomicRound(newStore(), pool); err != nil {
			return err
		}
	}
	return nil
}

// atomicRound is one round of checkAtomicReads on s.
func atomicRound(s Store, pool []mounts) error {
	r := &report{}
	s.SetCSIMounts(deepCopy(pool[0]))
	v := &violations{}
	var writing atomic.Int32
	writing.Store(atomicWriters)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for w := range atomicWriters {
		wg.Go(func() {
			defer writing.Add(-1)
			<-start
			v.guard(fmt.Sprintf("writer %d", w), func() {
				for i := range atomicRounds {
					s.SetCSIMounts(deepCopy(pool[(w*7+i*5)%len(pool)]))
					runtime.Gosched() // let readers in between sets, not only within
				}
			})
		})
	}
	for rd := range atomicReaders {
		wg.Go(func() {
			<-start
			v.guard(fmt.Sprintf("reader %d", rd), func() {
				for writing.Load() > 0 {
					got := s.GetCSIMounts()
					if !isPoolMap(pool, got, false) {
						v.addf(func() string {
							return fmt.Sprintf("GetCSIMounts() while others set complete maps of 1 to %d entries = %s with %d entries, want exactly one of them",
								len(pool), format(got), len(got))
						})
					}
					// A spinning reader would keep a woken writer waiting
					// for a processor, a time slice per set.
					runtime.Gosched()
				}
			})
		})
	}
	close(start)
	wg.Wait()
	v.report(r)
	return r.err()
}
