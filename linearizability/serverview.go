package linearizability

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/anishathalye/porcupine"
)

// StoreState is a Node.UpdateAlloc delivering a client's state of one
// alloc to the server (SYNC-4): the server's record of Alloc becomes Value,
// a label naming the state ("running#3", a version). Its Output is nil; a
// call that failed or whose delivery is uncertain returns Open.
type StoreState struct {
	Alloc, Value string
}

// ReadState reads the server's record of Alloc. Its Output is a StateSeen.
type ReadState struct {
	Alloc string
}

// StateSeen is what a ReadState observed: the stored Value, "" if nothing
// was stored yet.
type StateSeen struct {
	Value string
}

func serverViewStep(state, input, output any) (bool, any) {
	s := state.(string)
	switch in := input.(type) {
	case StoreState:
		return true, in.Value
	case ReadState:
		out, ok := output.(StateSeen)
		return ok && out.Value == s, s
	default:
		return false, s
	}
}

func describeValue(v string) string {
	if v == "" {
		return "nothing"
	}
	return strconv.Quote(v)
}

func describeServerViewOp(input, output any) string {
	switch in := input.(type) {
	case StoreState:
		return "store " + describeValue(in.Value)
	case ReadState:
		out, _ := output.(StateSeen)
		return "read -> " + describeValue(out.Value)
	default:
		return fmt.Sprintf("%#v -> %#v", input, output)
	}
}

var serverViewModel = porcupine.Model{
	Init:                      func() any { return "" },
	Step:                      serverViewStep,
	DescribeOperation:         describeServerViewOp,
	DescribeState:             func(s any) string { return describeValue(s.(string)) },
	DescribeOperationMetadata: describeNote,
}

func validServerViewOp(key string, o Op) error {
	var alloc string
	switch in := o.Input.(type) {
	case StoreState:
		if in.Value == "" {
			return errors.New("store of an empty value (\"\" reads as nothing stored)")
		}
		if o.Output != nil {
			return fmt.Errorf("store has output %#v, want nil (a failed store is Open)", o.Output)
		}
		alloc = in.Alloc
	case ReadState:
		if _, ok := o.Output.(StateSeen); !ok {
			return fmt.Errorf("read has output %#v, want a StateSeen", o.Output)
		}
		alloc = in.Alloc
	default:
		return fmt.Errorf("input %#v, want a StoreState or ReadState", o.Input)
	}
	if alloc != key {
		return fmt.Errorf("alloc %q in the partition of %q", alloc, key)
	}
	return nil
}

// PartitionServerView groups ops by the alloc of their StoreState or
// ReadState input, one partition per alloc keyed by its ID, sorted by key,
// ops in their given order.
func PartitionServerView(ops []Op) ([]Partition, error) {
	byAlloc := map[string][]Op{}
	for i, o := range ops {
		var alloc string
		switch in := o.Input.(type) {
		case StoreState:
			alloc = in.Alloc
		case ReadState:
			alloc = in.Alloc
		default:
			return nil, fmt.Errorf("partition server view: op %d: input %#v, want a StoreState or ReadState", i, o.Input)
		}
		byAlloc[alloc] = append(byAlloc[alloc], o)
	}
	parts := make([]Partition, 0, len(byAlloc))
	for alloc, ops := range byAlloc {
		parts = append(parts, Partition{Key: alloc, Ops: ops})
	}
	slices.SortFunc(parts, func(a, b Partition) int { return cmp.Compare(a.Key, b.Key) })
	return parts, nil
}

// CheckServerView checks each partition against the server's view of one
// alloc: a register, initially empty, written by StoreState and read by
// ReadState. Every op of a partition must name the partition's alloc (see
// PartitionServerView). A read that returns after a store completed and
// sees an older value is Illegal (SYNC-5.4). Partitions are checked in key
// order and checking stops at the first Illegal one. The error reports a
// malformed history, never a verdict.
//
// Before the search, a partition loses its Open stores of a value no read
// of it returned (dropUnreadOpenStores): they cannot change its verdict,
// and each store in flight doubles the search (a client whose UpdateAlloc
// calls time out through a partition leaves one per call).
func CheckServerView(parts []Partition, opts Options) (Result, error) {
	return checker{name: "server view", model: serverViewModel, validOp: validServerViewOp,
		reduce: dropUnreadOpenStores}.check(parts, opts)
}

// dropUnreadOpenStores returns ops without the Open StoreStates whose
// Value no ReadState of ops returned. On a register that is exact: a
// history with such a store S is linearizable iff it is without S. If
// it is with S, no read sits between S and the next store in that order
// (it would return S's value), so removing S leaves every read's value
// as it was; if it is without S, S (whose return is Open) takes its
// place after every other op, where nothing reads it.
func dropUnreadOpenStores(ops []Op) []Op {
	read := map[string]bool{}
	for _, o := range ops {
		if _, ok := o.Input.(ReadState); ok {
			read[o.Output.(StateSeen).Value] = true
		}
	}
	return slices.DeleteFunc(slices.Clone(ops), func(o Op) bool {
		in, ok := o.Input.(StoreState)
		return ok && o.IsOpen() && !read[in.Value]
	})
}
