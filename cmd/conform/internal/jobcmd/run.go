package jobcmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/apiclient"
	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/impl/jobspec"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// RunSummary is the one-line description listed by `conform help`.
const RunSummary = "submit a jobspec (HCL or JSON) to an agent and list its allocs"

// Defaults of the flags.
const (
	// DefaultTimeout bounds the wait for the allocs to be placed.
	DefaultTimeout = 5 * time.Second
	// PollInterval is the pause between two alloc listings.
	PollInterval = 100 * time.Millisecond
)

type runOptions struct {
	address string
	detach  bool
	timeout time.Duration
	verbose bool
}

func newRunFlagSet(name string, o *runOptions) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&o.address, "address", "", "agent address (default NOMAD_ADDR, else "+apiclient.DefaultAddress+")")
	fs.BoolVar(&o.detach, "detach", false, "print the evaluation and return without listing allocs")
	fs.DurationVar(&o.timeout, "timeout", DefaultTimeout, "how long to wait for the allocs to be placed")
	fs.BoolVar(&o.verbose, "verbose", false, "full IDs")
	return fs
}

// Run runs `conform job run` (package documentation).
func Run(name string, args []string, stdout, stderr io.Writer) error {
	var o runOptions
	fs := newRunFlagSet(name, &o)
	helped, err := cli.ParseFlags(fs, args, stdout, writeRunHelp)
	if err != nil || helped {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef(msgOneFile, fs.NArg())
	}
	if o.timeout < 0 {
		return cli.Usagef(msgBadTimeout, o.timeout)
	}
	path := fs.Arg(0)
	job, err := readJob(path, stderr)
	if err != nil {
		return err
	}
	client, err := apiclient.New(o.address)
	if err != nil {
		return err
	}
	resp, _, err := client.Jobs().Register(apiconv.JobToAPI(job), &api.WriteOptions{Namespace: job.Namespace})
	if err != nil {
		return fmt.Errorf("registering job %q: %w", job.ID, err)
	}
	if _, err := fmt.Fprintf(stdout, fmtRegistered, job.ID, resp.EvalID, resp.JobModifyIndex); err != nil {
		return fmt.Errorf("writing the registration: %w", err)
	}
	if o.detach {
		return nil
	}
	want := groupCount(job)
	placed, err := waitPlaced(client, job, resp.JobModifyIndex, want, o.timeout)
	if err != nil {
		return err
	}
	if err := writePlaced(stdout, placed, o.verbose); err != nil {
		return fmt.Errorf("writing the allocations: %w", err)
	}
	if len(placed) < want {
		fmt.Fprintf(stderr, fmtFewPlaced, len(placed), want, o.timeout)
	}
	return nil
}

// readJob reads and parses the jobspec; parse errors are invalid input.
func readJob(path string, stderr io.Writer) (*structs.Job, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the jobspec: %w", err)
	}
	job, warnings, err := jobspec.Parse(path, src)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	if err != nil {
		return nil, cli.Usage(err)
	}
	if job == nil {
		return nil, cli.Usage(errors.New(msgNoJob))
	}
	return job, nil
}

// groupCount is the number of allocs the job asks for.
func groupCount(job *structs.Job) int {
	n := 0
	for _, tg := range job.TaskGroups {
		if tg != nil && tg.Count > 0 {
			n += tg.Count
		}
	}
	return n
}

// waitPlaced lists the job's allocs until want of them belong to the
// registration at index (desired run, modified at or after it) or timeout
// passes, and returns those it found.
func waitPlaced(client *api.Client, job *structs.Job, index uint64, want int, timeout time.Duration) ([]*api.AllocationListStub, error) {
	deadline := time.Now().Add(timeout)
	for {
		stubs, _, err := client.Jobs().Allocations(job.ID, false, &api.QueryOptions{Namespace: job.Namespace})
		if err != nil {
			return nil, fmt.Errorf("listing the allocations of job %q: %w", job.ID, err)
		}
		var placed []*api.AllocationListStub
		for _, s := range stubs {
			if s != nil && s.DesiredStatus == structs.AllocDesiredStatusRun && s.ModifyIndex >= index {
				placed = append(placed, s)
			}
		}
		if len(placed) >= want || !time.Now().Add(PollInterval).Before(deadline) {
			return placed, nil
		}
		time.Sleep(PollInterval)
	}
}

func writePlaced(w io.Writer, placed []*api.AllocationListStub, verbose bool) error {
	if len(placed) == 0 {
		_, err := fmt.Fprintln(w, msgNonePlaced)
		return err
	}
	if _, err := fmt.Fprintln(w, "Allocations placed:"); err != nil {
		return err
	}
	return apiclient.WriteAllocTable(w, placed, verbose)
}
