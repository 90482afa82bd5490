package properties

import (
	"errors"
	"flag"
	"os"
	"sync"
	"testing"
)

// hostMu serialises Check's host tests: they swap process-wide state
// (standard output, go test's -run and -skip filters).
var hostMu sync.Mutex

const hostTest = "allocsim-check"

// withTestingT runs body under a *testing.T of its own, for Check: a
// synctest bubble needs one, and Check's callers have none. It needs a
// test binary (testing.Testing); the host test's own lines (=== RUN,
// --- PASS) are kept off standard output, and go test's -run/-skip
// filters, which selected the caller, do not apply to it.
func withTestingT(body func(t *testing.T)) error {
	if !testing.Testing() {
		return errors.New("properties: Check needs a test binary (testing/synctest bubbles exist only under go test); call it from a test, or use conform run")
	}
	hostMu.Lock()
	defer hostMu.Unlock()
	restore := clearFilters()
	defer restore()
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		saved := os.Stdout
		os.Stdout = null
		defer func() {
			os.Stdout = saved
			null.Close()
		}()
	}
	var once sync.Once
	ran := false
	ok := testing.RunTests(func(string, string) (bool, error) { return true, nil }, []testing.InternalTest{{
		Name: hostTest,
		F: func(t *testing.T) {
			// -test.count and -test.cpu would run the host test again.
			once.Do(func() { ran = true; body(t) })
		},
	}})
	switch {
	case !ran:
		return errors.New("properties: Check's host test did not run")
	case !ok:
		return errors.New("properties: Check's host test failed (a data race under -race, or a panic in the suite)")
	}
	return nil
}

// clearFilters empties go test's -run and -skip while the host test is
// matched, and returns what puts them back.
func clearFilters() func() {
	var saved []func()
	for _, name := range []string{"test.run", "test.skip"} {
		f := flag.Lookup(name)
		if f == nil {
			continue
		}
		old := f.Value.String()
		if f.Value.Set("") == nil {
			saved = append(saved, func() { _ = f.Value.Set(old) })
		}
	}
	return func() {
		for _, r := range saved {
			r()
		}
	}
}
