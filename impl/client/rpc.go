package client

import (
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// ErrUnknownAllocation is matched (errors.Is) by the error ClientRPC
// returns for an alloc without a live runner; its text is API-7's
// `Unknown allocation "<id>"`.
var ErrUnknownAllocation = errors.New("unknown allocation")

// fmtUnknownAlloc is API-7's client-side lookup failure, SPEC text.
const fmtUnknownAlloc = "Unknown allocation \"%s\""

type unknownAllocError struct{ id string }

func (e unknownAllocError) Error() string        { return fmt.Sprintf(fmtUnknownAlloc, e.id) }
func (e unknownAllocError) Is(target error) bool { return target == ErrUnknownAllocation }

// ClientRPC handles the server-to-client calls of API-7: look up the
// alloc's runner (`Unknown allocation "<id>"`), then call its method and
// return its error verbatim. Args may be a request value or a non-nil
// pointer to one; reply must be a non-nil pointer to the response.
//
//   - Allocations.SetPauseState: AllocPauseRequest → GenericResponse{0}
//   - Allocations.GetPauseState: AllocGetPauseStateRequest →
//     AllocGetPauseStateResponse
//   - Allocations.Signal: AllocSignalRequest → GenericResponse{0}; an
//     empty Task signals every task of the alloc in name order, joining
//     the failures as `Failed to signal task: <name>, err: <err>` (API-6)
//   - Allocations.Restart: AllocRestartRequest → GenericResponse{0}; a
//     TaskName restarts that task (RestartTask), AllTasks every task that
//     ran (RestartAll), neither every running task (RestartRunning), each
//     with a fresh `Restart Signaled` event (AR-1)
func (c *Client) ClientRPC(method string, args any, reply any) error {
	switch method {
	case structs.RPCClientSetPauseState:
		return handle(method, args, reply, func(req *structs.AllocPauseRequest, resp *structs.GenericResponse) error {
			ar, err := c.lookup(req.AllocID)
			if err != nil {
				return err
			}
			if err := ar.SetTaskPauseState(req.Task, req.ScheduleState); err != nil {
				return err
			}
			resp.Index = 0
			return nil
		})
	case structs.RPCClientGetPauseState:
		return handle(method, args, reply, func(req *structs.AllocGetPauseStateRequest, resp *structs.AllocGetPauseStateResponse) error {
			ar, err := c.lookup(req.AllocID)
			if err != nil {
				return err
			}
			s, err := ar.GetTaskPauseState(req.Task)
			if err != nil {
				return err
			}
			resp.ScheduleState = s
			return nil
		})
	case structs.RPCClientSignal:
		return handle(method, args, reply, func(req *structs.AllocSignalRequest, resp *structs.GenericResponse) error {
			ar, err := c.lookup(req.AllocID)
			if err != nil {
				return err
			}
			if err := signal(ar, req.Task, req.Signal); err != nil {
				return err
			}
			resp.Index = 0
			return nil
		})
	case structs.RPCClientRestart:
		return handle(method, args, reply, func(req *structs.AllocRestartRequest, resp *structs.GenericResponse) error {
			ar, err := c.lookup(req.AllocID)
			if err != nil {
				return err
			}
			if err := restart(ar, req.TaskName, req.AllTasks); err != nil {
				return err
			}
			resp.Index = 0
			return nil
		})
	default:
		return fmt.Errorf("unknown client RPC method %q", method)
	}
}

func (c *Client) lookup(allocID string) (interfaces.AllocRunner, error) {
	ar, ok := c.runners.get(allocID)
	if !ok {
		return nil, unknownAllocError{id: allocID}
	}
	return ar, nil
}

// signal sends sig to one task, or to every task in name order when task
// is empty (API-6).
func signal(ar interfaces.AllocRunner, task, sig string) error {
	if task != "" {
		return ar.Signal(task, sig)
	}
	var errs []error
	for _, name := range taskNames(ar) {
		if err := ar.Signal(name, sig); err != nil {
			errs = append(errs, fmt.Errorf(structs.FmtSignalTaskFailed, name, err))
		}
	}
	return errors.Join(errs...)
}

// restart restarts one task, every task that ran (all) or every running
// task (AR-1); the runner stamps the Restart Signaled event.
func restart(ar interfaces.AllocRunner, task string, all bool) error {
	switch {
	case task != "":
		return ar.RestartTask(task, nil)
	case all:
		return ar.RestartAll(nil)
	default:
		return ar.RestartRunning(nil)
	}
}

// taskNames are the alloc's tasks sorted by name: its group's tasks, or,
// without a job, the tasks it has states for (DET-2).
func taskNames(ar interfaces.AllocRunner) []string {
	if tg := ar.Alloc().LookupTaskGroup(); tg != nil {
		var names []string
		for _, t := range tg.Tasks {
			if t != nil {
				names = append(names, t.Name)
			}
		}
		slices.Sort(names)
		return slices.Compact(names)
	}
	if s := ar.AllocState(); s != nil {
		return structs.SortedTaskNames(s.TaskStates)
	}
	return nil
}

// handle type-checks a call's args and reply and runs fn.
func handle[Req, Resp any](method string, args, reply any, fn func(*Req, *Resp) error) error {
	var req *Req
	switch a := args.(type) {
	case *Req:
		req = a
	case Req:
		req = &a
	}
	if req == nil {
		return fmt.Errorf("%s: args are %T, want *%s", method, args, reflect.TypeFor[Req]())
	}
	resp, ok := reply.(*Resp)
	if !ok || resp == nil {
		return fmt.Errorf("%s: reply is %T, want non-nil *%s", method, reply, reflect.TypeFor[Resp]())
	}
	return fn(req, resp)
}
