package alloccmd

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/allocsim/allocsim/cmd/conform/internal/apiclient"
	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/hashicorp/nomad/api"
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
	fs.StringVar(&o.address, "address", "", "agent address (default NOMAD_ADDR, else "+apiclient.DefaultAddress+")")
	return fs
}

// RunPause runs `conform alloc pause` (SPEC API-8; package documentation).
// Unknown flags are usage errors (exit 2); every SPEC failure is a plain
// error (exit 1) whose text is SPEC's message.
func RunPause(name string, args []string, stdout, stderr io.Writer) error {
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

	client, err := apiclient.New(o.address)
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
		if err := apiclient.WriteAllocTable(&table, stubs, verbose); err != nil {
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
		return "", errors.New(strings.Join(append([]string{fmt.Sprintf(FmtTaskRequired, alloc.ID)}, names...), "\n"))
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
