package runcmd

import (
	"fmt"
	"strings"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/cmd/conform/internal/runners"
	"github.com/allocsim/allocsim/cmd/conform/internal/suiterun"
)

// Runner groups --runner accepts besides single names.
const (
	// groupAll is the reference and minimal runners and every mutant.
	groupAll = "all"
	// groupMutants is every mutant.
	groupMutants = "mutants"
)

// selection is what the command line names to check.
type selection struct {
	runners    []string
	pkg        string
	factory    string
	profile    string
	expectFail bool
}

// targets resolves the selection: built-in runners by name (a group
// carries the built-in expectations: a mutant is expected to fail, on
// the SPEC rules it breaks), then the package runner.
func (s selection) targets() ([]suiterun.Target, error) {
	var out []suiterun.Target
	seen := map[string]bool{}
	add := func(t suiterun.Target) {
		if !seen[t.Name] {
			seen[t.Name] = true
			out = append(out, t)
		}
	}
	for _, name := range s.runners {
		switch name {
		case groupAll, groupMutants:
			for _, r := range runners.All() {
				if name == groupMutants && r.Kind != runners.KindMutant {
					continue
				}
				t := suiterun.Target{Name: r.Name, Builtin: true, Profile: r.Profile, ExpectFail: r.ExpectFail}
				if r.Kind == runners.KindMutant {
					t.Specs = r.Breaks
				}
				add(t)
			}
		default:
			r, err := runners.Lookup(name)
			if err != nil {
				return nil, cli.Usage(err)
			}
			add(suiterun.Target{Name: r.Name, Builtin: true, Profile: r.Profile, ExpectFail: s.expectFail})
		}
	}
	if s.pkg != "" {
		add(suiterun.Target{Pkg: s.pkg, Factory: s.factory, Profile: runners.ProfileFull, ExpectFail: s.expectFail})
	}
	if len(out) == 0 {
		return nil, cli.Usagef("name a runner: --runner NAME (conform runners lists them; %q and %q are groups) or --pkg IMPORTPATH --factory NAME", groupAll, groupMutants)
	}
	if s.profile != "" {
		for i := range out {
			out[i].Profile = s.profile
		}
	}
	return out, nil
}

// replayFlags are the flags that name target t again in a replay command.
func replayFlags(t suiterun.Target, profileSet bool) string {
	var b strings.Builder
	if t.Builtin {
		fmt.Fprintf(&b, "--runner %s", t.Name)
	} else {
		fmt.Fprintf(&b, "--pkg %s --factory %s", shellQuote(t.Pkg), t.Factory)
	}
	if profileSet || (!t.Builtin && t.Profile != runners.ProfileFull) {
		fmt.Fprintf(&b, " --profile %s", t.Profile)
	}
	return b.String()
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
