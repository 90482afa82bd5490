package hookrestest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// Store is what the suite checks: the CSI mount map of one alloc runner's
// hook resources (HOOKRES-2). hookres.HookResources implements it.
type Store interface {
	// SetCSIMounts replaces the map atomically with a deep copy of mounts.
	SetCSIMounts(mounts map[string]*interfaces.CSIMountPoint)
	// GetCSIMounts returns a deep copy of the map, initially empty.
	GetCSIMounts() map[string]*interfaces.CSIMountPoint
}

// mounts is the suite's name for the map a Store holds.
type mounts = map[string]*interfaces.CSIMountPoint

// Run runs every check on stores made by newStore, one subtest each, and
// reports each check's violations in its subtest.
func Run[S Store](t *testing.T, newStore func() S) {
	t.Helper()
	ns := asStoreFunc(newStore)
	var copyFailed []string
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if c.needsCopies && len(copyFailed) > 0 {
				t.Skipf("not run: the store failed %s; shared maps under concurrency are a fatal runtime error, not a report",
					strings.Join(copyFailed, ", "))
			}
			if err := runCheck(c, ns); err != nil {
				if c.copyCheck {
					copyFailed = append(copyFailed, c.name)
				}
				t.Errorf("%v", err)
			}
		})
	}
}

// Check runs every check on stores made by newStore and returns every
// violation found, joined, each prefixed by its check's name and SPEC IDs;
// nil when the store conforms. The concurrent checks are not run when a
// copy check failed (see the package documentation).
func Check[S Store](newStore func() S) error {
	ns := asStoreFunc(newStore)
	var errs []error
	copyFailed := false
	for _, c := range checks {
		if c.needsCopies && copyFailed {
			continue
		}
		if err := runCheck(c, ns); err != nil {
			copyFailed = copyFailed || c.copyCheck
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func asStoreFunc[S Store](newStore func() S) func() Store {
	return func() Store { return newStore() }
}

// check is one property: run returns every violation it found, joined.
type check struct {
	name string
	spec string
	run  func(newStore func() Store) error
	// copyCheck: a failure means the store shares maps with its callers.
	copyCheck bool
	// needsCopies: run only when every copy check passed.
	needsCopies bool
}

// checks in order; each lives in the file of its concept.
var checks = []check{
	{name: "InitialEmpty", spec: "HOOKRES-2", run: checkInitialEmpty},
	{name: "SetGet", spec: "HOOKRES-2", run: checkSetGet},
	{name: "Replace", spec: "HOOKRES-2", run: checkReplace},
	{name: "GetCopies", spec: "HOOKRES-1, HOOKRES-4", run: checkGetCopies, copyCheck: true},
	{name: "SetCopies", spec: "HOOKRES-2, HOOKRES-4", run: checkSetCopies, copyCheck: true},
	{name: "DeepCopy", spec: "HOOKRES-1, HOOKRES-2", run: checkDeepCopy, copyCheck: true},
	{name: "Concurrent", spec: "HOOKRES-1, HOOKRES-4", run: checkConcurrent, needsCopies: true},
	{name: "AtomicReads", spec: "HOOKRES-2, HOOKRES-4", run: checkAtomicReads, needsCopies: true},
}

// runCheck runs c; a panic is a violation too. The result names the
// check and its SPEC IDs.
func runCheck(c check, newStore func() Store) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.Join(err, fmt.Errorf("panic: %v", r))
		}
		if err != nil {
			err = fmt.Errorf("%s (%s): %w", c.name, c.spec, err)
		}
	}()
	return c.run(newStore)
}

// report collects violations.
type report struct{ errs []error }

func (r *report) add(format string, args ...any) {
	r.errs = append(r.errs, fmt.Errorf(format, args...))
}

func (r *report) err() error { return errors.Join(r.errs...) }

// wantMounts reads s and requires exactly want, as a non-nil map; op says
// what led to the read. It reports whether the read was right.
func (r *report) wantMounts(s Store, op string, want mounts) bool {
	got := s.GetCSIMounts()
	if got == nil {
		r.add("GetCSIMounts() %s = nil, want %s (never nil)", op, format(want))
		return false
	}
	if !equal(got, want) {
		r.add("GetCSIMounts() %s = %s, want %s", op, format(got), format(want))
		return false
	}
	return true
}

// equal compares two maps by value; a nil entry equals only a nil entry.
func equal(a, b mounts) bool {
	if len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || (av == nil) != (bv == nil) || (av != nil && *av != *bv) {
			return false
		}
	}
	return true
}

// format renders m deterministically: aliases sorted, a device marked.
func format(m mounts) string {
	if m == nil {
		return "nil"
	}
	var b strings.Builder
	b.WriteString("map[")
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteString(" ")
		}
		switch mp := m[k]; {
		case mp == nil:
			fmt.Fprintf(&b, "%s:nil", k)
		case mp.IsDevice:
			fmt.Fprintf(&b, "%s:%q(device)", k, mp.Source)
		default:
			fmt.Fprintf(&b, "%s:%q", k, mp.Source)
		}
	}
	b.WriteString("]")
	return b.String()
}

// deepCopy is the suite's own copy, never the store's.
func deepCopy(m mounts) mounts {
	if m == nil {
		return nil
	}
	c := make(mounts, len(m))
	for k, v := range m {
		if v != nil {
			cp := *v
			v = &cp
		}
		c[k] = v
	}
	return c
}
