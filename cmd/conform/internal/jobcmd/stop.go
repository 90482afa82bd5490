package jobcmd

import (
	"flag"
	"fmt"
	"io"

	"github.com/allocsim/allocsim/cmd/conform/internal/apiclient"
	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
)

// StopSummary is the one-line description listed by `conform help`.
const StopSummary = "stop a job (and with -purge remove it) on an agent"

type stopOptions struct {
	address string
	purge   bool
}

func newStopFlagSet(name string, o *stopOptions) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&o.address, "address", "", "agent address (default NOMAD_ADDR, else "+apiclient.DefaultAddress+")")
	fs.BoolVar(&o.purge, "purge", false, "remove the job from the agent's state, not only stop it")
	return fs
}

// Stop runs `conform job stop` (package documentation).
func Stop(name string, args []string, stdout, stderr io.Writer) error {
	var o stopOptions
	fs := newStopFlagSet(name, &o)
	helped, err := cli.ParseFlags(fs, args, stdout, writeStopHelp)
	if err != nil || helped {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef(msgOneJobID, fs.NArg())
	}
	id := fs.Arg(0)
	if id == "" {
		return cli.Usagef(msgEmptyJobID)
	}
	client, err := apiclient.New(o.address)
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
		_, err = fmt.Fprintf(stdout, fmtStoppedNoEval, id, done)
	} else {
		_, err = fmt.Fprintf(stdout, fmtStopped, id, done, evalID)
	}
	if err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	return nil
}
