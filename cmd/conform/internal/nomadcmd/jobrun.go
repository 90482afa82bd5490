package nomadcmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/impl/agent/apiconv"
	"github.com/allocsim/allocsim/impl/jobspec"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// JobRunSummary is the one-line description listed by `conform help`.
const JobRunSummary = "submit a jobspec (HCL or JSON) to an agent and list its allocs"

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
	fs.StringVar(&o.address, "address", "", "agent address (default NOMAD_ADDR, else "+DefaultAddress+")")
	fs.BoolVar(&o.detach, "detach", false, "print the evaluation and return without listing allocs")
	fs.DurationVar(&o.timeout, "timeout", DefaultTimeout, "how long to wait for the allocs to be placed")
	fs.BoolVar(&o.verbose, "verbose", false, "full IDs")
	return fs
}

const runHelp = `Usage:
  conform job run [options] FILE

Submit the jobspec FILE to an agent (PUT /v1/jobs, SPEC API-4) with the
official Go client, print the evaluation ID, then list the allocations the
job placed with their status at that moment. FILE is HCL (*.hcl, *.nomad)
or the API's JSON (*.json, or any file starting with "{"); see
impl/jobspec for the subset understood. Constructs outside it are accepted
with a warning on stderr.

Options (before FILE):
  -address=ADDR    the agent's HTTP address. Default: $NOMAD_ADDR, else
                   %s.
  -detach          print the evaluation and return; do not wait for the
                   allocations.
  -timeout=D       how long to wait for the allocations to be placed, a Go
                   duration (default %v). Fewer than asked for after it:
                   the ones found are listed and a note goes to stderr.
  -verbose         show full IDs.
  -h, --help       print this help.

Output:
  Job "<id>" registered: evaluation <eval-id> at index <n>
  Allocations placed:
  ID        Node ID   Job ID  Task Group  Desired  Status
  ...

Exit codes:
  0  the job was registered
  1  the file could not be read, the agent could not be reached, or it
     rejected the job (its reason, e.g. "task schedules requires Nomad
     Enterprise" from a ce agent, is on stderr)
  2  bad usage or an invalid jobspec (every problem on stderr, with its
     position)

Examples:
  # Against a dev agent on this machine (conform agent -dev)
  conform job run fixtures/jobs/scheduled-batch.hcl

  # Against another agent, without waiting
  NOMAD_ADDR=http://10.0.0.5:4646 conform job run -detach job.json
`

func writeRunHelp(w io.Writer) {
	fmt.Fprintf(w, runHelp, DefaultAddress, DefaultTimeout)
}

// JobRun runs `conform job run` (package documentation).
func JobRun(name string, args []string, stdout, stderr io.Writer) error {
	var o runOptions
	fs := newRunFlagSet(name, &o)
	helped, err := cli.ParseFlags(fs, args, stdout, writeRunHelp)
	if err != nil || helped {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("job run takes exactly one argument, the jobspec file (HCL or JSON); got %d", fs.NArg())
	}
	if o.timeout < 0 {
		return cli.Usagef("invalid -timeout %v: must not be negative", o.timeout)
	}
	path := fs.Arg(0)
	job, err := readJob(path, stderr)
	if err != nil {
		return err
	}
	client, err := newClient(o.address)
	if err != nil {
		return err
	}
	resp, _, err := client.Jobs().Register(apiconv.JobToAPI(job), &api.WriteOptions{Namespace: job.Namespace})
	if err != nil {
		return fmt.Errorf("registering job %q: %w", job.ID, err)
	}
	if _, err := fmt.Fprintf(stdout, "Job %q registered: evaluation %s at index %d\n", job.ID, resp.EvalID, resp.JobModifyIndex); err != nil {
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
		fmt.Fprintf(stderr, "Only %d of %d allocations were placed within %v.\n", len(placed), want, o.timeout)
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
		return nil, cli.Usage(errors.New("the jobspec holds no job"))
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
		_, err := fmt.Fprintln(w, "No allocations placed.")
		return err
	}
	if _, err := fmt.Fprintln(w, "Allocations placed:"); err != nil {
		return err
	}
	return writeAllocTable(w, placed, verbose)
}
