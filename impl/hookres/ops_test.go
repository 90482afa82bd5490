package hookres

import (
	"fmt"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/google/go-cmp/cmp"
)

// mountStore is what the HOOKRES properties exercise. HookResources
// implements it, and so do the deliberately broken stores below, which
// prove that the properties can fail.
type mountStore interface {
	SetCSIMounts(mounts)
	GetCSIMounts() mounts
}

var _ mountStore = (*HookResources)(nil)

type opKind int

const (
	opSet       opKind = iota // set a fresh copy of pool[Pool]
	opGet                     // get and compare with the model
	opMutateGot               // mutate the map the last get returned
	opMutateArg               // mutate the map the last set was given
)

// op is one step of a sequential HOOKRES-4 scenario.
type op struct {
	Kind opKind
	Pool int      // opSet
	Mut  mutation // opMutateGot, opMutateArg
}

func (o op) String() string {
	switch o.Kind {
	case opSet:
		return fmt.Sprintf("set(pool[%d])", o.Pool)
	case opGet:
		return "get"
	case opMutateGot:
		return fmt.Sprintf("mutate-got(%s)", o.Mut)
	default:
		return fmt.Sprintf("mutate-arg(%s)", o.Mut)
	}
}

// mutation is one way a caller can mutate a map it holds.
type mutation int

const (
	mutAdd    mutation = iota // add a new alias
	mutDelete                 // delete the first alias
	mutSource                 // change the first mount point's Source in place
	mutDevice                 // flip the first mount point's IsDevice in place
	mutNil                    // replace the first entry with nil
	numMutations
)

func (m mutation) String() string {
	return [...]string{"add", "delete", "source", "device", "nil"}[m]
}

// apply mutates target; n makes added aliases and sources distinct.
func (m mutation) apply(target mounts, n int) {
	if m == mutAdd {
		target[fmt.Sprintf("added-%d", n)] = &interfaces.CSIMountPoint{Source: fmt.Sprintf("/added/%d", n)}
		return
	}
	keys := sortedAliases(target)
	if len(keys) == 0 {
		return
	}
	first := keys[0]
	switch m {
	case mutDelete:
		delete(target, first)
	case mutSource:
		if mp := target[first]; mp != nil {
			mp.Source = fmt.Sprintf("/mutated/%d", n)
		}
	case mutDevice:
		if mp := target[first]; mp != nil {
			mp.IsDevice = !mp.IsDevice
		}
	case mutNil:
		target[first] = nil
	}
}

func sortedAliases(m mounts) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// encode renders m deterministically, so that maps compare as strings.
func encode(m mounts) string {
	var b strings.Builder
	b.WriteString("{")
	for _, k := range sortedAliases(m) {
		if mp := m[k]; mp == nil {
			fmt.Fprintf(&b, "%s=nil;", k)
		} else {
			fmt.Fprintf(&b, "%s=%s,%t;", k, mp.Source, mp.IsDevice)
		}
	}
	b.WriteString("}")
	return b.String()
}

// runOps runs ops sequentially against s and compares every get with the
// model: the empty map before the first set, else exactly the map last set
// (as it was when set). It returns the first violation.
func runOps(s mountStore, pool []mounts, ops []op) error {
	want := mounts{}
	var lastArg, lastGot mounts
	for i, o := range ops {
		switch o.Kind {
		case opSet:
			lastArg = copyMounts(pool[o.Pool])
			want = copyMounts(pool[o.Pool])
			s.SetCSIMounts(lastArg)
		case opGet:
			got := s.GetCSIMounts()
			if got == nil {
				return fmt.Errorf("op %d %s: GetCSIMounts() = nil, want non-nil (HOOKRES-2)", i, o)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				return fmt.Errorf("op %d %s: GetCSIMounts() mismatch (-want +got) (HOOKRES-4):\n%s", i, o, diff)
			}
			lastGot = got
		case opMutateGot:
			if lastGot != nil {
				o.Mut.apply(lastGot, i)
			}
		case opMutateArg:
			if lastArg != nil {
				o.Mut.apply(lastArg, i)
			}
		}
	}
	return nil
}

// aliasStore keeps the caller's map and returns it: no copies at all.
type aliasStore struct{ m mounts }

func (s *aliasStore) SetCSIMounts(m mounts) { s.m = m }
func (s *aliasStore) GetCSIMounts() mounts {
	if s.m == nil {
		return mounts{}
	}
	return s.m
}

// shallowStore copies maps but shares the mount points.
type shallowStore struct{ m mounts }

func (s *shallowStore) SetCSIMounts(m mounts) { s.m = shallow(m) }
func (s *shallowStore) GetCSIMounts() mounts  { return shallow(s.m) }

func shallow(m mounts) mounts {
	c := make(mounts, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// mergeStore deep-copies but merges each set into the previous map, the
// get → mutate → set shape HOOKRES-2 forbids.
type mergeStore struct{ h HookResources }

func (s *mergeStore) SetCSIMounts(m mounts) {
	cur := s.h.GetCSIMounts()
	for k, v := range m {
		cur[k] = v
	}
	s.h.SetCSIMounts(cur)
}
func (s *mergeStore) GetCSIMounts() mounts { return s.h.GetCSIMounts() }
