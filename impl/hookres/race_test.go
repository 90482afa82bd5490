package hookres

import (
	"fmt"
	"sync"
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
	"go.uber.org/goleak"
)

// TestConcurrentHammer hammers one HookResources from many goroutines that
// set, get and mutate both what they set and what they got, for a bounded
// number of iterations. Its verdict comes from the race detector (run with
// -race) and from the completeness check on every read (HOOKRES-4).
func TestConcurrentHammer(t *testing.T) {
	defer goleak.VerifyNone(t)

	const (
		goroutines = 16
		iterations = 500
	)
	complete := func(g, i int) mounts {
		m := mounts{}
		for k := range 1 + (g+i)%5 {
			m[fmt.Sprintf("v%d", k)] = &interfaces.CSIMountPoint{Source: fmt.Sprintf("/mnt/%d/%d", g, i), IsDevice: k%2 == 0}
		}
		return m
	}
	// A read is complete when it is empty or all its entries carry the
	// same writer/iteration source and the size that writer set.
	isComplete := func(m mounts) bool {
		if len(m) == 0 {
			return true
		}
		var src string
		for _, mp := range m {
			if mp == nil || (src != "" && mp.Source != src) {
				return false
			}
			src = mp.Source
		}
		var g, i int
		if _, err := fmt.Sscanf(src, "/mnt/%d/%d", &g, &i); err != nil {
			return false
		}
		return len(m) == 1+(g+i)%5
	}

	h := New()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var bad []string
	for g := range goroutines {
		wg.Go(func() {
			for i := range iterations {
				if (g+i)%3 == 0 {
					arg := complete(g, i)
					h.SetCSIMounts(arg)
					for _, mp := range arg {
						mp.Source = "/mutated-after-set"
					}
					arg["extra"] = &interfaces.CSIMountPoint{}
					continue
				}
				got := h.GetCSIMounts()
				if !isComplete(got) {
					mu.Lock()
					bad = append(bad, encode(got))
					mu.Unlock()
				}
				for k, mp := range got {
					mp.Source = "/mutated-after-get"
					got[k] = nil
				}
				got["extra"] = &interfaces.CSIMountPoint{}
			}
		})
	}
	wg.Wait()
	if len(bad) > 0 {
		t.Fatalf("%d partial or mutated reads, first: %s", len(bad), bad[0])
	}
	if got := h.GetCSIMounts(); !isComplete(got) || len(got) == 0 {
		t.Fatalf("final GetCSIMounts() = %s, want a complete non-empty map", encode(got))
	}
}
