package runners

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/impl/reference"
)

// Suite profiles, the names properties' ProfileFull and
// ProfileClientCommunication have (the conform binary does not link the
// suite itself, which runs under go test, so a test keeps them equal).
const (
	ProfileFull                = "full"
	ProfileClientCommunication = "client-communication"
)

// Profiles are the suite's profiles, for flag checks.
func Profiles() []string { return []string{ProfileFull, ProfileClientCommunication} }

// Kind says what a built-in runner is.
type Kind string

// Kinds, in listing order.
const (
	KindReference Kind = "reference"
	KindMinimal   Kind = "minimal"
	KindMutant    Kind = "mutant"
)

// MutantPrefix names a mutant on the command line: mutant/<name>.
const MutantPrefix = "mutant/"

// Runner is one built-in runner.
type Runner struct {
	// Name is how the command line names it: reference, minimal,
	// mutant/<name>.
	Name string
	Kind Kind
	// Profile is the suite profile it is checked under.
	Profile string
	// ExpectFail is set for mutants: the runner meets its expectation
	// when the suite fails it.
	ExpectFail bool
	// Breaks are the SPEC rules a mutant breaks; About says what the
	// runner is in one sentence.
	Breaks []string
	About  string
	// Factory builds it.
	Factory interfaces.Factory
}

// All returns every built-in runner: the reference, the minimal runner,
// then the mutants by name.
func All() []Runner {
	out := []Runner{
		{Name: "reference", Kind: KindReference, Profile: ProfileFull, Factory: reference.Factory,
			About: "the complete reference runner (impl/): alloc and task runners, hooks, schedules, sync, restore"},
		{Name: "minimal", Kind: KindMinimal, Profile: ProfileClientCommunication, Factory: reference.Minimal,
			About: "the smallest runner the factory accepts (impl/minimal, AR-3): client-server traffic only"},
	}
	for _, m := range mutants.All() {
		out = append(out, Runner{Name: MutantPrefix + m.Name, Kind: KindMutant, Profile: ProfileFull,
			ExpectFail: true, Breaks: slices.Clone(m.Breaks), About: m.Mirrors, Factory: m.Factory})
	}
	return out
}

// Lookup returns the runner named name; a mutant may be named with or
// without its mutant/ prefix.
func Lookup(name string) (Runner, error) {
	all := All()
	for _, r := range all {
		if r.Name == name || (r.Kind == KindMutant && MutantPrefix+name == r.Name) {
			return r, nil
		}
	}
	return Runner{}, fmt.Errorf("no built-in runner %q (conform runners lists %d: reference, minimal, %s<name>)", name, len(all), MutantPrefix)
}

// Line is the runner's line in `conform runners`.
func (r Runner) Line(width int) string {
	what := r.About
	if r.Kind == KindMutant {
		what = "breaks " + strings.Join(r.Breaks, ", ") + ": " + r.About
	}
	return fmt.Sprintf("%-*s  %-20s  %s", width, r.Name, r.Profile, what)
}

// SuitePackage is the package, relative to the allocsim module's root,
// whose TestSuite runs the suite against a built-in runner.
const SuitePackage = "./cmd/conform/internal/runners"

// Summary is the command's line in `conform help`.
const Summary = "list the built-in runners (reference, minimal, every mutant with the rule it breaks)"

const help = `Usage:
  conform runners

Lists the built-in runners, one per line: the name to pass to
conform run --runner, the suite profile it is checked under, and what it is.
Mutants (mutant/<name>) are the reference runner with one known defect; the
line says which SPEC rules it breaks and the real bug it mirrors. The suite
is expected to fail every mutant and pass the reference and minimal runners.
`

// Run runs `conform runners`.
func Run(name string, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	helped, err := cli.ParseFlags(fs, args, stdout, func(w io.Writer) { fmt.Fprint(w, help) })
	if err != nil || helped {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("%s takes no arguments (got %q)", name, fs.Args())
	}
	all := All()
	width := 0
	for _, r := range all {
		width = max(width, len(r.Name))
	}
	for _, r := range all {
		if _, err := fmt.Fprintln(stdout, r.Line(width)); err != nil {
			return fmt.Errorf("write: %w", err)
		}
	}
	return nil
}
