package nomadcmd

import (
	"flag"
	"fmt"
	"io"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
)

// JobStopSummary is the one-line description listed by `conform help`.
const JobStopSummary = "stop a job (and with -purge remove it) on an agent"

type stopOptions struct {
	address string
	purge   bool
}

func newStopFlagSet(name string, o *stopOptions) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&o.address, "address", "", "agent address (default NOMAD_ADDR, else "+DefaultAddress+")")
	fs.BoolVar(&o.purge, "purge", false, "remove the job from the agent's state, not only stop it")
	return fs
}

const stopHelp = `Usage:
  conform job stop [options] JOB

Stop the job whose ID is JOB on an agent (DELETE /v1/job/<id>) with the
official Go client, as nomad job stop does: its allocations are told to
stop, and the job stays readable until purged. JOB is the exact ID (no
prefix lookup). The command returns once the agent accepted the stop; it
does not wait for the allocations to stop.

Options (before JOB):
  -address=ADDR    the agent's HTTP address. Default: $NOMAD_ADDR, else
                   %s.
  -purge           also remove the job from the agent's state
                   (DELETE /v1/job/<id>?purge=true).
  -h, --help       print this help.

Output:
  Job "<id>" stopped: evaluation <eval-id>
  Job "<id>" stopped and purged: evaluation <eval-id>     (with -purge)

Exit codes:
  0  the agent accepted the stop
  1  the agent could not be reached or refused (its reason is on stderr)
  2  bad usage: no job ID, more than one, an empty one, an unknown flag

Examples:
  # Stop the job of the README's walkthrough on a dev agent
  conform job stop sleeper

  # Stop and forget it, on another agent
  conform job stop -purge -address http://10.0.0.5:4646 sleeper
`

func writeStopHelp(w io.Writer) {
	fmt.Fprintf(w, stopHelp, DefaultAddress)
}

// JobStop runs `conform job stop` (package documentation).
func JobStop(name string, args []string, stdout, stderr io.Writer) error {
	var o stopOptions
	fs := newStopFlagSet(name, &o)
	helped, err := cli.ParseFlags(fs, args, stdout, writeStopHelp)
	if err != nil || helped {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("job stop takes exactly one argument, the job ID; got %d", fs.NArg())
	}
	id := fs.Arg(0)
	if id == "" {
		return cli.Usagef("the job ID is empty")
	}
	client, err := newClient(o.address)
	if err != nil {
		return err
	}
	evalID, _, err := client.Jobs().Deregister(id, o.purge, nil)
	if err != nil {
		return fmt.Errorf("stopping job %q: %w", id, err)
	}
	done := "stopped"
	if o.purge {
		done = "stopped and purged"
	}
	if evalID == "" {
		_, err = fmt.Fprintf(stdout, "Job %q %s (no evaluation)\n", id, done)
	} else {
		_, err = fmt.Fprintf(stdout, "Job %q %s: evaluation %s\n", id, done, evalID)
	}
	if err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	return nil
}
