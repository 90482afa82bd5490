package nomadcmd

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/hashicorp/nomad/api"
)

// AllocPauseSummary is SPEC API-8's synopsis, listed by `conform help`.
const AllocPauseSummary = "Pause a running task"

// SPEC API-8's messages, verbatim.
const (
	MsgArgs          = "This command takes up to two arguments: <alloc-id> <task>"
	FmtBadState      = "Pause action must be one of \"pause\", \"run\", or \"scheduled\" but got %q"
	MsgShortID       = "Alloc ID must contain at least two characters."
	FmtQueryAlloc    = "Error querying allocation: %v"
	FmtNoAlloc       = "No allocation(s) with prefix or id %q found"
	MsgMultipleMatch = "Prefix matched multiple allocations"
	FmtTaskNotFound  = "Could not find task named: %s, found:"
	FmtPauseState    = "Pause state: %q"
	FmtGetState      = "Error getting task pause state: %v"
	FmtSetState      = "Error setting pause state: %v"
)

// The -state values (API-2's ScheduleState).
const (
	StatePause     = "pause"
	StateRun       = "run"
	StateScheduled = "scheduled"
)

// pauseOptions are the parsed flags of `alloc pause`.
type pauseOptions struct {
	state   string
	status  bool
	task    string
	verbose bool
	address string
}

func newPauseFlagSet(name string, o *pauseOptions) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&o.state, "state", StatePause, "pause, run or scheduled")
	fs.BoolVar(&o.status, "status", false, "print the task's pause state instead of setting it")
	fs.StringVar(&o.task, "task", "", "the task (over the positional <task>)")
	fs.BoolVar(&o.verbose, "verbose", false, "full IDs")
	fs.StringVar(&o.address, "address", "", "agent address (default NOMAD_ADDR, else "+DefaultAddress+")")
	return fs
}

const pauseHelp = `Usage:
  conform alloc pause [options] <allocation> [<task>]

Pause a running task (SPEC API-8): force a task of an allocation to pause
or to run whatever its schedule says, hand it back to its schedule, or read
its pause state. The task must have a schedule (SPEC section 3); the agent
must run the ent profile.

<allocation> is an alloc ID or a prefix of at least two characters; a prefix
of odd hex length loses its last character. <task> names a task of the
alloc's group; it may be left out when the group has only one task.

Options (before the arguments):
  -state=STATE     the pause state to set (default pause):
                     pause      stop the task and keep it stopped (force_pause)
                     run        run the task, outside its window too (force_run)
                     scheduled  drop the override: follow the schedule again
  -status          print the task's stored pause state instead, as
                   Pause state: "<state>", one of "" (following the schedule,
                   inside its window), "scheduled_pause" (outside it),
                   "force_pause" or "force_run".
  -task=NAME       the task; wins over the positional <task>.
  -verbose         show full IDs in the table printed when a prefix matches
                   several allocations.
  -address=ADDR    the agent's HTTP address. Default: $NOMAD_ADDR, else
                   %s.
  -h, --help       print this help.

Setting a state prints nothing: the task stops or starts shortly after, as
the task events Pausing and Running (then Started) show in
GET /v1/allocation/<id>.

Exit codes:
  0  success (the state was set, or printed with -status)
  1  failure: wrong number of arguments, a bad -state, an ID shorter than
     two characters, no or several matching allocations, an unknown task,
     or an error from the agent. The reason is on stderr.
  2  bad usage: an unknown flag.

Examples:
  # Pause task "sleeper" of alloc 8ab1c2d3-..., whatever its schedule says
  conform alloc pause 8ab1 sleeper

  # Is it paused?
  conform alloc pause -status 8ab1 sleeper

  # Run it now, outside its window
  conform alloc pause -state=run 8ab1 sleeper

  # Back to the schedule
  conform alloc pause -state=scheduled -task=sleeper 8ab1
`

func writePauseHelp(w io.Writer) {
	fmt.Fprintf(w, pauseHelp, DefaultAddress)
}

// AllocPause runs `conform alloc pause` (SPEC API-8; package documentation).
// Unknown flags are usage errors (exit 2); every SPEC failure is a plain
// error (exit 1) whose text is SPEC's message.
func AllocPause(name string, args []string, stdout, stderr io.Writer) error {
	// SPEC API-8 fixes the stderr text of every failure: no prefix.
	return cli.Verbatim(runPause(name, args, stdout, stderr))
}

func runPause(name string, args []string, stdout, _ io.Writer) error {
	var o pauseOptions
	fs := newPauseFlagSet(name, &o)
	helped, err := cli.ParseFlags(fs, args, stdout, writePauseHelp)
	if err != nil || helped {
		return err
	}
	pos := fs.Args()
	if len(pos) < 1 || len(pos) > 2 {
		return errors.New(MsgArgs)
	}
	switch o.state {
	case StatePause, StateRun, StateScheduled:
	default:
		return fmt.Errorf(FmtBadState, o.state)
	}
	allocID := pos[0]
	if len(allocID) == 1 {
		return errors.New(MsgShortID)
	}
	allocID = SanitizePrefix(allocID)
	task := o.task
	if task == "" && len(pos) == 2 {
		task = pos[1]
	}

	client, err := newClient(o.address)
	if err != nil {
		return err
	}
	alloc, err := lookupAlloc(client, allocID, o.verbose)
	if err != nil {
		return err
	}
	if task, err = pickTask(alloc, task); err != nil {
		return err
	}
	if o.status {
		state, _, err := client.Allocations().GetPauseState(alloc, nil, task)
		if err != nil {
			return fmt.Errorf(FmtGetState, err)
		}
		if _, err := fmt.Fprintf(stdout, FmtPauseState+"\n", state); err != nil {
			return fmt.Errorf("writing the pause state: %w", err)
		}
		return nil
	}
	if err := client.Allocations().SetPauseState(alloc, nil, task, o.state); err != nil {
		return fmt.Errorf(FmtSetState, err)
	}
	return nil
}

// SanitizePrefix drops the last character of an ID prefix whose hex
// length (without hyphens) is odd, so that it covers whole bytes (API-8).
func SanitizePrefix(prefix string) string {
	if len(strings.ReplaceAll(prefix, "-", ""))%2 == 1 {
		return prefix[:len(prefix)-1]
	}
	return prefix
}

// lookupAlloc finds the one alloc whose ID starts with prefix (API-5) and
// reads it in full.
func lookupAlloc(client *api.Client, prefix string, verbose bool) (*api.Allocation, error) {
	stubs, _, err := client.Allocations().PrefixList(prefix)
	if err != nil {
		return nil, fmt.Errorf(FmtQueryAlloc, err)
	}
	switch len(stubs) {
	case 0:
		return nil, fmt.Errorf(FmtNoAlloc, prefix)
	case 1:
	default:
		var table bytes.Buffer
		if err := writeAllocTable(&table, stubs, verbose); err != nil {
			return nil, fmt.Errorf("rendering the matching allocations: %w", err)
		}
		return nil, errors.New(MsgMultipleMatch + "\n\n" + strings.TrimSuffix(table.String(), "\n"))
	}
	alloc, _, err := client.Allocations().Info(stubs[0].ID, nil)
	if err != nil {
		return nil, fmt.Errorf(FmtQueryAlloc, err)
	}
	return alloc, nil
}

// pickTask checks that task belongs to the alloc's group; an empty task
// names the group's only task. Without the job or the group (nothing to
// check against) the task is passed on as given.
func pickTask(alloc *api.Allocation, task string) (string, error) {
	names, ok := groupTasks(alloc)
	if !ok {
		return task, nil
	}
	if task == "" {
		if len(names) == 1 {
			return names[0], nil
		}
		return "", errors.New(strings.Join(append([]string{fmt.Sprintf("Allocation %q has more than one task; name one with <task> or -task, found:", alloc.ID)}, names...), "\n"))
	}
	for _, n := range names {
		if n == task {
			return task, nil
		}
	}
	return "", errors.New(strings.Join(append([]string{fmt.Sprintf(FmtTaskNotFound, task)}, names...), "\n"))
}

// groupTasks lists the task names of the alloc's group, in job order.
func groupTasks(alloc *api.Allocation) ([]string, bool) {
	if alloc.Job == nil {
		return nil, false
	}
	tg := alloc.Job.LookupTaskGroup(alloc.TaskGroup)
	if tg == nil {
		return nil, false
	}
	names := make([]string, 0, len(tg.Tasks))
	for _, t := range tg.Tasks {
		if t != nil {
			names = append(names, t.Name)
		}
	}
	return names, true
}
