package allocdirtest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
)

func diskFactory(t *testing.T, clk *clock.Mock) interfaces.AllocDirFactory {
	f, err := allocdir.DiskFactory(allocdir.Config{Root: filepath.Join(t.TempDir(), "alloc"), Clock: clk})
	must.NoError(t, err)
	return f
}

func memFactory(_ *testing.T, clk *clock.Mock) interfaces.AllocDirFactory {
	return allocdir.MemFactory(allocdir.NewMemFS(clk), allocdir.Config{Clock: clk})
}

// wrapped builds disk alloc dirs and hands them through wrap.
func wrapped(wrap func(*allocdir.AllocDir) interfaces.AllocDir) func(*testing.T, *clock.Mock) interfaces.AllocDirFactory {
	return func(t *testing.T, clk *clock.Mock) interfaces.AllocDirFactory {
		f := diskFactory(t, clk)
		return func(id string) interfaces.AllocDir { return wrap(f(id).(*allocdir.AllocDir)) }
	}
}

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

// TestChecksPassOnCorrectImplementations: every check returns nil for both
// storages (the allocdir package runs TestAllocDir on them as well).
func TestChecksPassOnCorrectImplementations(t *testing.T) {
	for name, nf := range map[string]func(*testing.T, *clock.Mock) interfaces.AllocDirFactory{"disk": diskFactory, "mem": memFactory} {
		for _, c := range checks {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				must.NoError(t, runCheck(t, c, nf))
			})
		}
	}
}

// TestChecksCatchMutants is the suite proving itself: each broken alloc
// dir must fail the named checks, with a report that says why.
func TestChecksCatchMutants(t *testing.T) {
	type catch struct{ check, says string }
	cases := []struct {
		name  string
		wrap  func(*allocdir.AllocDir) interfaces.AllocDir
		catch []catch
	}{
		{"no escape check", func(a *allocdir.AllocDir) interfaces.AllocDir { return noEscapeCheck{a} }, []catch{
			{"EscapeLexical", `Stat("..") = <nil>, want error "Path escapes the alloc directory"`},
			{"EscapeSymlink", `ReadAt("alloc/data/peer", 0) = <nil>, want error "Path escapes the alloc directory"`},
		}},
		{"lexical check only", func(a *allocdir.AllocDir) interfaces.AllocDir { return lexicalOnly{noEscapeCheck{a}} }, []catch{
			{"EscapeSymlink", `Stat("alloc/data/up") = <nil>, want error "Path escapes the alloc directory"`},
			{"EscapeCheckFails", `Stat("alloc/data/loop") = stat`},
		}},
		{"string prefix check", func(a *allocdir.AllocDir) interfaces.AllocDir { return prefixOnly{noEscapeCheck{a}} }, []catch{
			{"EscapeSibling", `ReadAt("alloc/data/sib", 0) = <nil>, want error "Path escapes the alloc directory"`},
		}},
		{"no secrets check", func(a *allocdir.AllocDir) interfaces.AllocDir { return noSecretsCheck{a} }, []catch{
			{"Secrets", `ReadAt("web/secrets/token", 0) = <nil>, want error "Reading secret file prohibited: web/secrets/token"`},
			{"SecretsViaSymlink", `want error "Reading secret file prohibited: alloc/data/tok"`},
		}},
		{"case-sensitive secrets check", func(a *allocdir.AllocDir) interfaces.AllocDir { return caseSensitiveSecrets{noSecretsCheck{a}} }, []catch{
			{"Secrets", `want error "Reading secret file prohibited: WEB/SECRETS/token"`},
		}},
		{"tmp not sticky", func(a *allocdir.AllocDir) interfaces.AllocDir { return plainTmp{a} }, []catch{
			{"Layout", `Stat("web/tmp").FileMode = "drwxrwxrwx", want "dtrwxrwxrwx"`},
		}},
		{"unsorted List", func(a *allocdir.AllocDir) interfaces.AllocDir { return unsortedList{a} }, []catch{
			{"List", `List("alloc/data") names = ["link" "empty" "b.txt" "alink" "a"]`},
			{"Layout", `List("alloc") names`},
		}},
		{".json sniffed", func(a *allocdir.AllocDir) interfaces.AllocDir { return jsonSniffed{a} }, []catch{
			{"ContentType", `Stat("alloc/data/x.json").ContentType = "text/plain; charset=utf-8", want "application/json"`},
		}},
		{"offset ignored", func(a *allocdir.AllocDir) interfaces.AllocDir { return offsetIgnored{a} }, []catch{
			{"ReadAt", `ReadAt("alloc/data/b.txt", 1) content = "bee", want "ee"`},
		}},
		{"Destroy keeps the tree", func(a *allocdir.AllocDir) interfaces.AllocDir { return destroyNothing{a} }, []catch{
			{"Destroy", `Stat("") after Destroy = <nil>`},
		}},
		{"Move into an unbuilt dir", func(a *allocdir.AllocDir) interfaces.AllocDir { return moveUnbuilt{a} }, []catch{
			{"MoveNotBuilt", `- alloc dir is not built"`},
		}},
		{"Snapshot swallows the walk error", func(a *allocdir.AllocDir) interfaces.AllocDir { return silentSnapshot{a} }, []catch{
			{"SnapshotError", `Snapshot(w) with task ghost unbuilt = <nil>, want error starting "failed to snapshot `},
		}},
		{"BlockUntilExists never fires", func(a *allocdir.AllocDir) interfaces.AllocDir { return neverExists{a} }, []catch{
			{"BlockUntilExists", `after the path appeared: received (state 0, <nil>), want the value <nil>`},
		}},
		{"BlockUntilExists fires at once", func(a *allocdir.AllocDir) interfaces.AllocDir { return eagerExists{a} }, []catch{
			{"BlockUntilExists", `before the path exists: received (state 1, <nil>), want nothing`},
		}},
		{"ChangeEvents never notifies", func(a *allocdir.AllocDir) interfaces.AllocDir { return deafChanges{a} }, []catch{
			{"ChangeEvents", `after append: notified [], want Modified`},
		}},
	}
	for _, c := range cases {
		for _, want := range c.catch {
			t.Run(c.name+"/"+want.check, func(t *testing.T) {
				err := runCheck(t, checkNamed(t, want.check), wrapped(c.wrap))
				must.Error(t, err)
				must.True(t, strings.Contains(err.Error(), want.says), must.Sprintf("report:\n%v\nwant it to contain %q", err, want.says))
			})
		}
	}
}

// TestChecksReportBrokenBasics: without a Writer, without Build, or with
// nil answers, every check that needs them reports it, and none panics.
func TestChecksReportBrokenBasics(t *testing.T) {
	cases := []struct {
		name   string
		wrap   func(*allocdir.AllocDir) interfaces.AllocDir
		passes []string // checks that need nothing broken here
		says   string
	}{
		{"no Writer", func(a *allocdir.AllocDir) interfaces.AllocDir { return noWriter{a} },
			[]string{"Layout", "TaskDirs"}, "does not implement allocdir.Writer"},
		{"Build fails", func(a *allocdir.AllocDir) interfaces.AllocDir { return buildFails{a} },
			[]string{"TaskDirs"}, "no space left on device"},
		{"nil results", func(a *allocdir.AllocDir) interfaces.AllocDir { return nilResults{a} },
			nil, ""},
	}
	for _, c := range cases {
		for _, chk := range checks {
			t.Run(c.name+"/"+chk.name, func(t *testing.T) {
				err := runCheck(t, chk, wrapped(c.wrap))
				if slices.Contains(c.passes, chk.name) {
					must.NoError(t, err)
					return
				}
				must.Error(t, err)
				must.StrNotContains(t, err.Error(), "panic:")
				must.StrContains(t, err.Error(), c.says)
			})
		}
	}
}

// TestTestAllocDir runs the exported entry point itself.
func TestTestAllocDir(t *testing.T) {
	TestAllocDir(t, memFactory)
}
