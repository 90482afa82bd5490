package hookrestest

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/shoenig/test/must"
)

func checkNamed(t *testing.T, name string) check {
	t.Helper()
	for _, c := range checks {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("no check named %q", name)
	return check{}
}

// TestChecksPassOnReference: every check returns nil for the reference
// store, built by New and as a zero value (package hookres runs Run on
// both as well).
func TestChecksPassOnReference(t *testing.T) {
	for name, newStore := range map[string]func() Store{
		"New":  func() Store { return hookres.New() },
		"zero": func() Store { return new(hookres.HookResources) },
	} {
		for _, c := range checks {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				must.NoError(t, runCheck(c, newStore))
			})
		}
		t.Run(name+"/Check", func(t *testing.T) {
			must.NoError(t, Check(newStore))
		})
	}
}

// TestRun runs the exported entry point itself; hookres.New is passed as
// it is (Run is generic over the store type).
func TestRun(t *testing.T) {
	Run(t, hookres.New)
}

const piecewise = "set entry by entry, each under the lock"

// TestChecksCatchBrokenStores is the suite proving itself: Check reports
// each broken store, under the named checks, with a report that says why;
// the checks in clean pass it (each catch is one defect, not noise).
func TestChecksCatchBrokenStores(t *testing.T) {
	type catch struct{ check, says string }
	cases := []struct {
		name     string
		newStore func() Store
		catch    []catch
		clean    []string // checks that pass this store
		notRun   bool     // the concurrent checks are skipped (shared maps)
	}{
		{"getter returns its internal map", func() Store { return newAliasGetStore() }, []catch{
			{"GetCopies", `GetCSIMounts() after adding "new" in the map an earlier GetCSIMounts() returned = map[a:"/mnt/a" b:"/dev/b"(device) new:"/mnt/new"], want map[a:"/mnt/a" b:"/dev/b"(device)]`},
			{"GetCopies", `GetCSIMounts() after clearing in the map an earlier GetCSIMounts() returned = map[], want map[a:"/mnt/a" b:"/dev/b"(device)]`},
			{"DeepCopy", `GetCSIMounts()["a"] = the same *CSIMountPoint in two calls, want a deep copy each`},
		}, []string{"InitialEmpty", "SetGet", "Replace", "SetCopies"}, true},
		{"setter keeps the caller's map", func() Store { return newKeepArgStore() }, []catch{
			{"SetCopies", `GetCSIMounts() after deleting "a" in the map passed to SetCSIMounts = map[b:"/dev/b"(device)], want map[a:"/mnt/a" b:"/dev/b"(device)]`},
			{"DeepCopy", `GetCSIMounts() after setting the Source of "a" in the map passed to SetCSIMounts = map[a:"/mnt/mutated" b:"/dev/b"(device)], want map[a:"/mnt/a" b:"/dev/b"(device)]`},
		}, []string{"InitialEmpty", "SetGet", "Replace", "GetCopies"}, true},
		{"read-modify-write setter merges", func() Store { return newMergeStore() }, []catch{
			{"Replace", `GetCSIMounts() after SetCSIMounts(map[a:"/mnt/a" b:"/dev/b"(device)]) then SetCSIMounts(map[c:"/mnt/c"]) = map[a:"/mnt/a" b:"/dev/b"(device) c:"/mnt/c"], want map[c:"/mnt/c"]`},
			{"Replace", `then SetCSIMounts(nil) = map[a:"/mnt/a" b:"/dev/b"(device)], want map[]`},
			{"AtomicReads", `GetCSIMounts() while others set complete maps of 1 to 24 entries = map[`},
		}, []string{"InitialEmpty", "SetGet", "GetCopies", "SetCopies", "DeepCopy"}, false},
		{"nil initial map", func() Store { return newNilInitStore() }, []catch{
			{"InitialEmpty", `GetCSIMounts() on a new store = nil, want map[] (never nil)`},
			{"Replace", `then SetCSIMounts(nil) = nil, want map[] (never nil)`},
		}, []string{"SetGet", "GetCopies", "SetCopies", "DeepCopy", "AtomicReads"}, false},
		{"mount points shared (maps.Clone)", func() Store { return newShallowStore() }, []catch{
			{"DeepCopy", `GetCSIMounts() after flipping the IsDevice of "b" in the map an earlier GetCSIMounts() returned = map[a:"/mnt/a" b:"/dev/b"], want map[a:"/mnt/a" b:"/dev/b"(device)]`},
			{"DeepCopy", `GetCSIMounts()["a"] = the *CSIMountPoint passed to SetCSIMounts, want a copy`},
		}, []string{"InitialEmpty", "SetGet", "Replace", "GetCopies", "SetCopies"}, true},
		{piecewise, func() Store { return newPiecewiseStore() }, []catch{
			{"AtomicReads", `GetCSIMounts() while others set complete maps of 1 to 24 entries = map[`},
		}, []string{"InitialEmpty", "SetGet", "Replace", "GetCopies", "SetCopies", "DeepCopy"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == piecewise && runtime.GOMAXPROCS(0) < 2 {
				t.Skip("a set that is not atomic shows only when a reader runs on another processor (GOMAXPROCS >= 2)")
			}
			err := Check(c.newStore)
			must.Error(t, err)
			report := err.Error()
			must.StrNotContains(t, report, "panic:")
			for _, want := range c.catch {
				prefix := fmt.Sprintf("%s (%s): ", want.check, checkNamed(t, want.check).spec)
				must.StrContains(t, report, prefix, must.Sprintf("report:\n%s", report))
				must.StrContains(t, report, want.says, must.Sprintf("report:\n%s\nwant it to contain %q", report, want.says))
			}
			for _, name := range c.clean {
				must.NoError(t, runCheck(checkNamed(t, name), c.newStore))
				must.StrNotContains(t, report, name+" (")
			}
			for _, ch := range checks {
				if ch.needsCopies && c.notRun {
					must.StrNotContains(t, report, ch.name+" (", must.Sprint("the concurrent checks run only when the copy checks pass"))
				}
			}
		})
	}
}

// raceChildEnv makes TestUnlockedStoreChild run Check on the unlocked
// store; its own failure (the race detector's) is the point.
const raceChildEnv = "HOOKRESTEST_RACE_CHILD"

// raceAttempts bounds the child runs: the race detector sees the
// unsynchronised field on nearly every run; a handful of misses in a row
// would be a suite too gentle to find it.
const raceAttempts = 5

// TestUnlockedStoreIsCaughtUnderRace: a store without a lock that swaps
// whole copied maps passes every check's own verdict (nothing is ever
// partial), so only the race detector catches it, in Concurrent and
// AtomicReads. Under -race a child process runs Check on it and must
// report a data race; without -race the test documents that Check alone
// passes it.
func TestUnlockedStoreIsCaughtUnderRace(t *testing.T) {
	if !raceEnabled {
		must.NoError(t, Check(newUnlockedStore), must.Sprint("without -race an unlocked store that swaps whole maps is invisible to Check"))
		t.Skip("run under -race: the race detector is what catches a store without a lock")
	}
	for i := 1; i <= raceAttempts; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestUnlockedStoreChild$", "-test.count=1", "-test.v")
		// The first report is enough; symbolising every one takes seconds.
		cmd.Env = append(os.Environ(), raceChildEnv+"=1", "GORACE=halt_on_error=1")
		out, _ := cmd.CombinedOutput() // the child fails: a race was found
		s := string(out)
		if !strings.Contains(s, "WARNING: DATA RACE") || !strings.Contains(s, "(*unlockedStore)") {
			continue
		}
		for _, in := range []string{"checkConcurrent", "atomicRound"} {
			if strings.Contains(s, "hookrestest."+in) {
				t.Logf("attempt %d: the race detector reports a race in unlockedStore under %s", i, in)
				return
			}
		}
	}
	t.Errorf("%d runs of Check on the unlocked store under -race: no data race reported", raceAttempts)
}

// TestUnlockedStoreChild is TestUnlockedStoreIsCaughtUnderRace's child.
func TestUnlockedStoreChild(t *testing.T) {
	if os.Getenv(raceChildEnv) == "" {
		t.Skip("the child of TestUnlockedStoreIsCaughtUnderRace")
	}
	if err := Check(newUnlockedStore); err != nil {
		t.Logf("Check: %v", err)
	}
}
