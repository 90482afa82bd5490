package linearizability

import (
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/anishathalye/porcupine"
)

// SetMounts is csi_hook's SetCSIMounts: it replaces the whole alias →
// mount source map (HOOKRES-2). Its Output is nil.
type SetMounts struct {
	Mounts map[string]string
}

// GetMounts is the volumes prestart reading the map once and checking the
// CSI aliases its task mounts (HOOKRES-3). Its Output is a MountsSeen.
type GetMounts struct {
	Aliases []string // sorted; the model sorts a copy if they are not
}

// MountsSeen is what a GetMounts observed, in HOOKRES-3's terms: the
// aliases are checked in sorted order and the check stops at the first
// one absent from the map.
//
// Missing == "" means every alias was present; Missing == X means every
// alias sorted before X was present and X was absent. That tells a reader
// of a partial map from a reader of the empty map: with aliases a and b,
// a read of {a} reports Missing b, a read of {} reports Missing a.
//
// Sources, when non-nil, are the sources read for the aliases found
// present (all of them when Missing is "", those before Missing
// otherwise), and nothing else; nil means the sources were not recorded.
type MountsSeen struct {
	Missing string
	Sources map[string]string
}

// mountsState is the model's state: the map and its canonical form, which
// Equal and Hash use. m is never mutated once built.
type mountsState struct {
	canon string
	m     map[string]string
}

func newMountsState(m map[string]string) mountsState {
	c := maps.Clone(m)
	return mountsState{canon: formatMounts(c), m: c}
}

// formatMounts renders m with sorted, quoted keys and values, so equal
// maps, and only they, render alike: {"a": "/x", "b": "/y"}.
func formatMounts(m map[string]string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(k))
		b.WriteString(": ")
		b.WriteString(strconv.Quote(m[k]))
	}
	b.WriteByte('}')
	return b.String()
}

func sortedAliases(aliases []string) []string {
	if slices.IsSorted(aliases) {
		return aliases
	}
	return slices.Sorted(slices.Values(aliases))
}

// observe is what a correct GetMounts of aliases reads from m: the first
// missing alias ("" if none) and the aliases checked present before it.
func observe(m map[string]string, aliases []string) (missing string, present []string) {
	aliases = sortedAliases(aliases)
	for i, a := range aliases {
		if _, ok := m[a]; !ok {
			return a, aliases[:i]
		}
	}
	return "", aliases
}

// seenFits reports whether out is what a GetMounts of aliases may observe
// in state m.
func seenFits(m map[string]string, aliases []string, out MountsSeen) bool {
	missing, present := observe(m, aliases)
	if out.Missing != missing {
		return false
	}
	if out.Sources == nil {
		return true
	}
	for _, a := range present {
		if src, ok := out.Sources[a]; !ok || src != m[a] {
			return false
		}
	}
	for k := range out.Sources {
		if _, found := slices.BinarySearch(present, k); !found {
			return false
		}
	}
	return true
}

func hookResStep(state, input, output any) (bool, any) {
	s := state.(mountsState)
	switch in := input.(type) {
	case SetMounts:
		return true, newMountsState(in.Mounts)
	case GetMounts:
		out, ok := output.(MountsSeen)
		return ok && seenFits(s.m, in.Aliases, out), s
	default:
		return false, s
	}
}

func describeHookResOp(input, output any) string {
	switch in := input.(type) {
	case SetMounts:
		return "set " + formatMounts(in.Mounts)
	case GetMounts:
		out, _ := output.(MountsSeen)
		get := fmt.Sprintf("get %q", sortedAliases(in.Aliases))
		switch {
		case out.Missing == "" && out.Sources == nil:
			return get + " -> all present"
		case out.Missing == "":
			return get + " -> " + formatMounts(out.Sources)
		case out.Sources == nil:
			return fmt.Sprintf("%s -> missing %q", get, out.Missing)
		default:
			return fmt.Sprintf("%s -> missing %q after %s", get, out.Missing, formatMounts(out.Sources))
		}
	default:
		return fmt.Sprintf("%#v -> %#v", input, output)
	}
}

var hookResModel = porcupine.Model{
	Init:  func() any { return newMountsState(nil) },
	Step:  hookResStep,
	Equal: func(a, b any) bool { return a.(mountsState).canon == b.(mountsState).canon },
	Hash: func(s any) uint64 {
		h := fnv.New64a()
		h.Write([]byte(s.(mountsState).canon))
		return h.Sum64()
	},
	DescribeOperation:         describeHookResOp,
	DescribeState:             func(s any) string { return s.(mountsState).canon },
	DescribeOperationMetadata: describeNote,
}

func validHookResOp(_ string, o Op) error {
	switch o.Input.(type) {
	case SetMounts:
		if o.Output != nil {
			return fmt.Errorf("set has output %#v, want nil (a failed set is Open or left out)", o.Output)
		}
	case GetMounts:
		if _, ok := o.Output.(MountsSeen); !ok {
			return fmt.Errorf("get has output %#v, want a MountsSeen", o.Output)
		}
	default:
		return fmt.Errorf("input %#v, want a SetMounts or GetMounts", o.Input)
	}
	return nil
}

// CheckHookResources checks each partition against the hook resources
// model (HOOKRES-2, HOOKRES-3): one map per alloc incarnation, initially
// empty, replaced whole by SetMounts, read by GetMounts. Readers must see
// the empty map or a complete one that was set, never a partial map
// (HOOKRES-4). Partitions are checked in key order and checking stops at
// the first Illegal one. The error reports a malformed history (an
// unknown input type, a bad interval, a duplicate key), never a verdict.
func CheckHookResources(parts []Partition, opts Options) (Result, error) {
	return checker{name: "hook resources", model: hookResModel, validOp: validHookResOp}.check(parts, opts)
}
