package statetest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
)

// Opener returns a fresh, empty StateDB for one subtest that consults hook
// (which may be nil) before every write, and registers its Close with
// t.Cleanup. Closing twice must be harmless.
type Opener func(t *testing.T, hook state.FaultHook) interfaces.StateDB

// TestStateDB runs the whole suite against the StateDB that open returns,
// one subtest per property.
func TestStateDB(t *testing.T, open Opener) {
	t.Helper()
	for _, p := range properties {
		t.Run(p.name, func(t *testing.T) { p.run(t, open) })
	}
}

// properties lists the suite's subtests; the name says what must hold.
var properties = []struct {
	name string
	run  func(*testing.T, Opener)
}{
	{"MissingReadsNil", testMissingReadsNil},
	{"RoundTrip", testRoundTrip},
	{"NilValuesReadBackNil", testNilValues},
	{"DeepCopyIsolation", testDeepCopyIsolation},
	{"MatchesModel", testMatchesModel},
	{"DeleteAllocationDeletesEverything", testDeleteAlloc},
	{"DeleteTaskBucketDeletesOneTask", testDeleteTask},
	{"ListSortedByID", testListSorted},
	{"TaskWriteWithoutAllocIsReportedPerAlloc", testTaskWriteWithoutAlloc},
	{"CorruptAllocSkippedPerAlloc", testCorruptAlloc},
	{"CorruptValuesFailTheirGet", testCorruptValues},
	{"UnknownFieldsIgnored", testUnknownFields},
	{"FaultHookSeesEveryWrite", testFaultHookSeesWrites},
	{"InjectedFailureKeepsPriorValues", testInjectedFailure},
	{"InvalidArgumentsRejected", testInvalidArguments},
	{"ClosedRejectsEverything", testClosed},
	{"ReopenKeepsCommittedWrites", testReopen},
	{"ConcurrentWriters", testConcurrentWriters},
}

// sameJSON fails t unless got and want encode to the same JSON: what the
// store persists is exactly the encoding, so equal encodings are equal
// values for the store. On failure it prints a structural diff.
func sameJSON(t tb, what string, got, want any) {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("%s: encode got: %v", what, err)
	}
	w, err := json.Marshal(want)
	if err != nil {
		t.Fatalf("%s: encode want: %v", what, err)
	}
	if bytes.Equal(g, w) {
		return
	}
	var gv, wv any
	_ = json.Unmarshal(g, &gv)
	_ = json.Unmarshal(w, &wv)
	t.Fatalf("%s differs (-want +got):\n%s", what, cmp.Diff(wv, gv))
}

// encode snapshots v as JSON, for comparisons after v is mutated.
func encode(t tb, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

// tb is what the helpers need from *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}
