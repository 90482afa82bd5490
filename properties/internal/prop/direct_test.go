package prop

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/reference"
)

// A Direct property's checks run directAtOnce at a time, yet the failure
// reported is the first in seed order: here checks 2 and 4 fail, and
// check 4 ends long before check 2 (virtual time, a bubble). Check 2 is
// reported, after exactly two checks counted, and no more than
// directAtOnce checks ever ran at once while at least two did.
func TestDirectChecksReportTheFirstFailureInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		seeds := []uint64{11, 12, 13, 14, 15, 16, 17}
		var mu sync.Mutex
		running, peak := 0, 0
		p := Property{ID: "X-1/direct", Direct: func(_ *testing.T, _ interfaces.Factory, seed uint64) Outcome {
			mu.Lock()
			running++
			peak = max(peak, running)
			mu.Unlock()
			defer func() {
				mu.Lock()
				running--
				mu.Unlock()
			}()
			switch seed {
			case 12:
				time.Sleep(time.Second)
				return Outcome{Violations: []Violation{{What: "second"}}}
			case 14:
				return Outcome{Violations: []Violation{{What: "fourth"}}}
			}
			time.Sleep(10 * time.Millisecond)
			return Outcome{}
		}}
		res := Result{Property: p, Coverage: newCoverage(nil)}
		exploreDirect(t, p, Config{Factory: reference.Factory}, seeds, &res)
		if res.Failure == nil || res.Failure.Seed != 12 || res.Failure.Check != 2 {
			t.Fatalf("failure %+v, want seed 12 (check 2)", res.Failure)
		}
		if res.Checks != 2 {
			t.Fatalf("checks counted = %d, want 2 (the results after the first failure are dropped)", res.Checks)
		}
		if peak < 2 || peak > directAtOnce {
			t.Fatalf("checks at once = %d, want 2..%d", peak, directAtOnce)
		}
	})
}
