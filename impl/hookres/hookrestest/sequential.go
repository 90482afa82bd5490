package hookrestest

import (
	"fmt"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// Fixture maps. Checks never hand these to a store: they set deep copies
// and compare with the originals.
var (
	fsOnly   = mounts{"data": {Source: "/mnt/data"}}
	devOnly  = mounts{"dev": {Source: "/dev/sdb", IsDevice: true}}
	several  = mounts{"data": {Source: "/mnt/data"}, "dev": {Source: "/dev/sdb", IsDevice: true}, "logs": {Source: "/mnt/logs"}}
	aAndB    = mounts{"a": {Source: "/mnt/a"}, "b": {Source: "/dev/b", IsDevice: true}}
	cOnly    = mounts{"c": {Source: "/mnt/c"}}
	aChanged = mounts{"a": {Source: "/mnt/a2", IsDevice: true}}
)

// mutation is one way a caller can change a map it holds.
type mutation struct {
	name  string
	apply func(m mounts)
}

// mapMutations change the map itself; aAndB has "a" and "b".
var mapMutations = []mutation{
	{`adding "new"`, func(m mounts) { m["new"] = &interfaces.CSIMountPoint{Source: "/mnt/new"} }},
	{`deleting "a"`, func(m mounts) { delete(m, "a") }},
	{`replacing "a"`, func(m mounts) { m["a"] = &interfaces.CSIMountPoint{Source: "/mnt/replaced", IsDevice: true} }},
	{`setting "a" to nil`, func(m mounts) { m["a"] = nil }},
	{"clearing", func(m mounts) { clear(m) }},
}

// pointMutations change a mount point the map references.
var pointMutations = []mutation{
	{`setting the Source of "a"`, func(m mounts) {
		if mp := m["a"]; mp != nil {
			mp.Source = "/mnt/mutated"
		}
	}},
	{`flipping the IsDevice of "b"`, func(m mounts) {
		if mp := m["b"]; mp != nil {
			mp.IsDevice = !mp.IsDevice
		}
	}},
}

// checkInitialEmpty: a new store reads as an empty, non-nil map
// (HOOKRES-2; a nil read is what crashed #16623's restored prestart).
func checkInitialEmpty(newStore func() Store) error {
	r := &report{}
	r.wantMounts(newStore(), "on a new store", mounts{})
	return r.err()
}

// checkSetGet: what is set reads back equal, every time (HOOKRES-2).
func checkSetGet(newStore func() Store) error {
	r := &report{}
	for _, m := range []mounts{fsOnly, devOnly, several} {
		s := newStore()
		s.SetCSIMounts(deepCopy(m))
		op := fmt.Sprintf("after SetCSIMounts(%s)", format(m))
		if r.wantMounts(s, op, m) {
			r.wantMounts(s, op+" and one GetCSIMounts()", m)
		}
	}
	return r.err()
}

// checkReplace: a set replaces the whole map; nothing of the previous one
// survives, and an empty or nil set empties it (HOOKRES-2: "replaces the
// map atomically", no read-modify-write).
func checkReplace(newStore func() Store) error {
	r := &report{}
	for _, c := range []struct{ first, second, want mounts }{
		{aAndB, cOnly, cOnly},
		{aAndB, aChanged, aChanged},
		{aAndB, mounts{}, mounts{}},
		{aAndB, nil, mounts{}},
	} {
		s := newStore()
		s.SetCSIMounts(deepCopy(c.first))
		s.SetCSIMounts(deepCopy(c.second))
		r.wantMounts(s, fmt.Sprintf("after SetCSIMounts(%s) then SetCSIMounts(%s)", format(c.first), format(c.second)), c.want)
	}
	return r.err()
}

// checkGetCopies: changing a returned map does not reach the store
// (HOOKRES-1 "getters return deep copies", HOOKRES-4).
func checkGetCopies(newStore func() Store) error {
	r := &report{}
	for _, mut := range mapMutations {
		s := newStore()
		s.SetCSIMounts(deepCopy(aAndB))
		got := s.GetCSIMounts()
		if got == nil || !equal(got, aAndB) {
			r.add("GetCSIMounts() after SetCSIMounts(%s) = %s, want %s", format(aAndB), format(got), format(aAndB))
			continue
		}
		mut.apply(got)
		r.wantMounts(s, "after "+mut.name+" in the map an earlier GetCSIMounts() returned", aAndB)
	}
	return r.err()
}

// checkSetCopies: changing the map passed to SetCSIMounts after the call
// does not reach the store (HOOKRES-2 "replaces the map", HOOKRES-4).
func checkSetCopies(newStore func() Store) error {
	r := &report{}
	for _, mut := range mapMutations {
		s := newStore()
		arg := deepCopy(aAndB)
		s.SetCSIMounts(arg)
		mut.apply(arg)
		r.wantMounts(s, "after "+mut.name+" in the map passed to SetCSIMounts", aAndB)
	}
	return r.err()
}

// checkDeepCopy: the mount points are copied too, on both sides
// (HOOKRES-1, HOOKRES-2 "deep copy").
func checkDeepCopy(newStore func() Store) error {
	r := &report{}
	for _, mut := range pointMutations {
		s := newStore()
		s.SetCSIMounts(deepCopy(aAndB))
		if got := s.GetCSIMounts(); got != nil {
			mut.apply(got)
		}
		r.wantMounts(s, "after "+mut.name+" in the map an earlier GetCSIMounts() returned", aAndB)

		s = newStore()
		arg := deepCopy(aAndB)
		s.SetCSIMounts(arg)
		mut.apply(arg)
		r.wantMounts(s, "after "+mut.name+" in the map passed to SetCSIMounts", aAndB)
	}

	// Sharing shows even when nobody mutates.
	s := newStore()
	arg := deepCopy(aAndB)
	s.SetCSIMounts(arg)
	first, second := s.GetCSIMounts(), s.GetCSIMounts()
	for _, alias := range []string{"a", "b"} {
		if mp := first[alias]; mp != nil && mp == second[alias] {
			r.add("GetCSIMounts()[%q] = the same *CSIMountPoint in two calls, want a deep copy each", alias)
		}
		if mp := first[alias]; mp != nil && mp == arg[alias] {
			r.add("GetCSIMounts()[%q] = the *CSIMountPoint passed to SetCSIMounts, want a copy", alias)
		}
	}
	return r.err()
}
