package main

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// writeHelp prints `conform help`: the commands and the exit codes.
func writeHelp(w io.Writer, table []command) {
	fmt.Fprint(w, `conform: tools around the allocsim spec for Nomad-style client allocation
runners.

Usage:
  conform <command> [flags]
  conform help [command]

Commands:
`)
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	for _, c := range table {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	fmt.Fprintf(tw, "  %s\t%s\n", "help", "show help for conform or a command")
	_ = tw.Flush()
	fmt.Fprint(w, `
Run 'conform <command> --help' for a command's flags and examples.

Exit codes:
  0  success
  1  the command failed for another reason
  2  bad usage or invalid input
  3  the tool itself failed (conform run: a runner's test did not build or
     the suite reported nothing)
`)
}
