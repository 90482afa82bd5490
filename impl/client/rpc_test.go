package client

import (
	"errors"
	"testing"
	"testing/synctest"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestAPI7_ClientRPC covers the client side of API-7 routing.
func TestAPI7_ClientRPC(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.ff.configure = func(fr *fakeRunner) {
			fr.signalErrs = map[string]error{"b": errors.New("Task not running"), "c": errors.New("boom")}
		}
		r.srv.put(testAlloc("a1", 1, "c", "a", "b"))
		c := r.start()
		synctest.Wait()
		fr := r.ff.runner("a1")

		cases := []struct {
			name   string
			method string
			args   any
			reply  any
			want   string // error text; "" = success
		}{
			{"set: unknown alloc", structs.RPCClientSetPauseState,
				&structs.AllocPauseRequest{AllocID: "nope", Task: "a", ScheduleState: structs.TaskScheduleStateForcePause},
				&structs.GenericResponse{}, `Unknown allocation "nope"`},
			{"set", structs.RPCClientSetPauseState,
				&structs.AllocPauseRequest{AllocID: "a1", Task: "a", ScheduleState: structs.TaskScheduleStateForcePause},
				&structs.GenericResponse{Index: 9}, ""},
			{"set by value", structs.RPCClientSetPauseState,
				structs.AllocPauseRequest{AllocID: "a1", Task: "b", ScheduleState: structs.TaskScheduleStateForceRun},
				&structs.GenericResponse{}, ""},
			{"set: runner error verbatim", structs.RPCClientSetPauseState,
				&structs.AllocPauseRequest{AllocID: "a1", Task: "missing"}, &structs.GenericResponse{}, "Task not found"},
			{"get: unknown alloc", structs.RPCClientGetPauseState,
				&structs.AllocGetPauseStateRequest{AllocID: ""}, &structs.AllocGetPauseStateResponse{}, `Unknown allocation ""`},
			{"get: runner error verbatim", structs.RPCClientGetPauseState,
				&structs.AllocGetPauseStateRequest{AllocID: "a1", Task: "missing"}, &structs.AllocGetPauseStateResponse{}, "Task not found"},
			{"signal: unknown alloc", structs.RPCClientSignal,
				&structs.AllocSignalRequest{AllocID: "x"}, &structs.GenericResponse{}, `Unknown allocation "x"`},
			{"signal one", structs.RPCClientSignal,
				&structs.AllocSignalRequest{AllocID: "a1", Task: "a", Signal: "SIGHUP"}, &structs.GenericResponse{}, ""},
			{"signal one: runner error verbatim", structs.RPCClientSignal,
				&structs.AllocSignalRequest{AllocID: "a1", Task: "b", Signal: "SIGHUP"}, &structs.GenericResponse{}, "Task not running"},
			{"signal all: aggregated in name order", structs.RPCClientSignal,
				&structs.AllocSignalRequest{AllocID: "a1", Signal: "SIGUSR1"}, &structs.GenericResponse{},
				"Failed to signal task: b, err: Task not running\nFailed to signal task: c, err: boom"},
			{"unknown method", "Allocations.Nope", nil, nil, `unknown client RPC method "Allocations.Nope"`},
			{"bad args", structs.RPCClientSignal, &structs.AllocPauseRequest{}, &structs.GenericResponse{},
				"Allocations.Signal: args are *structs.AllocPauseRequest, want *structs.AllocSignalRequest"},
			{"nil args", structs.RPCClientSignal, (*structs.AllocSignalRequest)(nil), &structs.GenericResponse{},
				"Allocations.Signal: args are *structs.AllocSignalRequest, want *structs.AllocSignalRequest"},
			{"bad reply", structs.RPCClientGetPauseState, &structs.AllocGetPauseStateRequest{AllocID: "a1"}, structs.AllocGetPauseStateResponse{},
				"Allocations.GetPauseState: reply is structs.AllocGetPauseStateResponse, want non-nil *structs.AllocGetPauseStateResponse"},
		}
		for _, tc := range cases {
			err := c.ClientRPC(tc.method, tc.args, tc.reply)
			if tc.want == "" {
				must.NoError(t, err, must.Sprintf("%s", tc.name))
				if g, ok := tc.reply.(*structs.GenericResponse); ok {
					must.Eq(t, 0, g.Index, must.Sprintf("%s: reply index", tc.name))
				}
				continue
			}
			must.EqError(t, err, tc.want, must.Sprintf("%s", tc.name))
		}

		var got structs.AllocGetPauseStateResponse
		must.NoError(t, c.ClientRPC(structs.RPCClientGetPauseState, &structs.AllocGetPauseStateRequest{AllocID: "a1", Task: "a"}, &got))
		must.Eq(t, structs.TaskScheduleStateForcePause, got.ScheduleState)
		must.NoError(t, c.ClientRPC(structs.RPCClientGetPauseState, &structs.AllocGetPauseStateRequest{AllocID: "a1", Task: "b"}, &got))
		must.Eq(t, structs.TaskScheduleStateForceRun, got.ScheduleState)

		must.Eq(t, []string{
			"run", "signal:a:SIGHUP", "signal:b:SIGHUP",
			"signal:a:SIGUSR1", "signal:b:SIGUSR1", "signal:c:SIGUSR1",
		}, fr.callLog())

		err := c.ClientRPC(structs.RPCClientSignal, &structs.AllocSignalRequest{AllocID: "gone"}, &structs.GenericResponse{})
		must.ErrorIs(t, err, ErrUnknownAllocation)
		r.shutdown()
	})
}

// TestAPI6_SignalAllWithoutJob: without a job the tasks come from the
// alloc's task states, in name order; no task means nothing to signal.
func TestAPI6_SignalAllWithoutJob(t *testing.T) {
	fr := &fakeRunner{alloc: &structs.Allocation{ID: "a", TaskStates: map[string]*structs.TaskState{
		"z": structs.NewTaskState(), "m": structs.NewTaskState(),
	}}, signalErrs: map[string]error{}}
	must.NoError(t, signal(fr, "", "SIGINT"))
	must.Eq(t, []string{"signal:m:SIGINT", "signal:z:SIGINT"}, fr.callLog())
	empty := &fakeRunner{alloc: &structs.Allocation{ID: "b"}}
	must.NoError(t, signal(empty, "", "SIGINT"))
	must.SliceEmpty(t, empty.callLog())
}

// TestRestartRPC: Allocations.Restart calls the runner's RestartTask for
// a task, RestartAll for all tasks, RestartRunning for neither, each
// with a nil event (the runner stamps its Restart Signaled, AR-1), and
// returns the runner's error verbatim.
func TestRestartRPC(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.put(testAlloc("a1", 1, "a"))
		c := r.start()
		synctest.Wait()
		fr := r.ff.runner("a1")
		for _, req := range []*structs.AllocRestartRequest{
			{AllocID: "a1", TaskName: "a"}, {AllocID: "a1", AllTasks: true}, {AllocID: "a1"},
		} {
			reply := &structs.GenericResponse{Index: 3}
			must.NoError(t, c.ClientRPC(structs.RPCClientRestart, req, reply))
			must.EqOp(t, uint64(0), reply.Index)
		}
		err := c.ClientRPC(structs.RPCClientRestart, &structs.AllocRestartRequest{AllocID: "a1", TaskName: "missing"}, &structs.GenericResponse{})
		must.EqError(t, err, "Could not find task runner for task: missing")
		err = c.ClientRPC(structs.RPCClientRestart, &structs.AllocRestartRequest{AllocID: "nope"}, &structs.GenericResponse{})
		must.ErrorIs(t, err, ErrUnknownAllocation)
		must.Eq(t, []string{"run", "restart:a:<nil>", "restart-all:<nil>", "restart-running:<nil>", "restart:missing:<nil>"}, fr.callLog())
		r.shutdown()
	})
}
