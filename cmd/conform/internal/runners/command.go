package runners

import (
	"flag"
	"fmt"
	"io"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
)

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
