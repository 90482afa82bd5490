package faults

import (
	"slices"
	"time"
)

// Class names a fault class.
type Class string

// The fault classes, in drawing order (client_crash before
// driver_recover_failure, which needs a crash).
const (
	DriverStartDelay     Class = "driver_start_delay"
	DriverStartFailure   Class = "driver_start_failure"
	DriverExit           Class = "driver_exit"
	DriverStopHang       Class = "driver_stop_hang"
	ClientCrash          Class = "client_crash"
	ClientRestart        Class = "client_restart"
	RunnerBuildFailure   Class = "runner_build_failure"
	DriverRecoverFailure Class = "driver_recover_failure"
	CSIMountLatency      Class = "csi_mount_latency"
	CSIMountFailure      Class = "csi_mount_failure"
	StateDBWriteFailure  Class = "statedb_write_failure"
	RPCLatency           Class = "rpc_latency"
	RPCFailure           Class = "rpc_failure"
	RPCPartition         Class = "rpc_partition"
	ClockJump            Class = "clock_jump"
	DriverStopFailure    Class = "driver_stop_failure"
	NodeDisconnect       Class = "node_disconnect"
	AllocDirLoss         Class = "alloc_dir_loss"
)

// Parameter names, as printed.
const (
	ParamRate        = "rate"
	ParamMax         = "max"
	ParamRecoverable = "recoverable"
	ParamUntil       = "until"
	ParamAt          = "at"
	ParamFor         = "for"
	ParamKey         = "key"
)

// Shape is what a fault class needs to know about a scenario to say
// whether it can happen in it.
type Shape struct {
	// Tasks is the number of tasks over all placed allocs.
	Tasks int
	// CSIVolumes is the number of CSI volume mounts over all tasks.
	CSIVolumes int
	// Crashes is the number of client restarts in the plan (crashes and
	// graceful restarts: a restore follows each).
	Crashes int
	// Duration is the run's length.
	Duration time.Duration
}

// classInfo describes a class: its parameters in print order (required
// ones first, optional ones after) and where it applies.
type classInfo struct {
	timed    bool
	required []string
	optional []string
	applies  func(Shape) bool
	// what says what the class does, for Describe.
	what string
	// unswarmed classes are never switched on by Draw (the generator):
	// only a property's own draw adds them, so that they neither change
	// the generator's draws nor reach properties that do not model them.
	unswarmed bool
}

func anyTask(s Shape) bool    { return s.Tasks > 0 }
func anyCSI(s Shape) bool     { return s.CSIVolumes > 0 }
func anyCrash(s Shape) bool   { return s.Tasks > 0 && s.Crashes > 0 }
func anyTime(s Shape) bool    { return s.Duration > 0 }
func longEnough(s Shape) bool { return s.Duration >= 10*time.Second }

var perCall = []string{ParamUntil}

var classes = map[Class]classInfo{
	DriverStartDelay: {required: []string{ParamRate, ParamMax}, optional: perCall, applies: anyTask,
		what: "StartTask blocks up to max longer"},
	DriverStartFailure: {required: []string{ParamRate, ParamRecoverable}, optional: perCall, applies: anyTask,
		what: "StartTask fails, recoverable or not"},
	DriverExit: {required: []string{ParamRate, ParamMax}, optional: perCall, applies: anyTask,
		what: "a started task exits within max with a non-zero code or a signal"},
	DriverStopHang: {required: []string{ParamRate}, optional: perCall, applies: anyTask,
		what: "a task ignores its stop signal until the kill timeout"},
	ClientCrash: {timed: true, required: []string{ParamAt, ParamFor}, applies: anyTime,
		what: "the client crashes at at and restarts for later from its state DB"},
	DriverRecoverFailure: {required: []string{ParamRate}, optional: perCall, applies: anyCrash,
		what: "RecoverTask fails after a client restart"},
	CSIMountLatency: {required: []string{ParamRate, ParamMax}, optional: perCall, applies: anyCSI,
		what: "a CSI mount takes up to max"},
	CSIMountFailure: {required: []string{ParamRate}, optional: perCall, applies: anyCSI,
		what: "a CSI mount fails"},
	StateDBWriteFailure: {required: []string{ParamRate}, optional: []string{ParamUntil, ParamKey}, applies: anyTask,
		what: "a state DB write fails (key=: only writes of that STATE-1 key)"},
	RPCLatency: {required: []string{ParamRate, ParamMax}, optional: perCall, applies: anyTime,
		what: "a client-server call takes up to max to arrive"},
	RPCFailure: {required: []string{ParamRate}, optional: perCall, applies: anyTime,
		what: "a client-server call is dropped and fails"},
	RPCPartition: {timed: true, required: []string{ParamAt, ParamFor}, applies: longEnough,
		what: "client and server cannot reach each other from at for for"},
	ClockJump: {timed: true, required: []string{ParamAt, ParamFor}, applies: longEnough,
		what: "the client host is suspended at at and resumes for later: overdue timers fire once"},
	DriverStopFailure: {required: []string{ParamRate}, optional: perCall, applies: anyTask,
		what: "StopTask fails before sending any signal"},
	NodeDisconnect: {timed: true, required: []string{ParamAt, ParamFor}, applies: longEnough,
		what: "the servers lose the node at at: they cannot reach each other for for, and its allocs are marked unknown"},
	ClientRestart: {timed: true, required: []string{ParamAt, ParamFor}, applies: anyTime, unswarmed: true,
		what: "the client is shut down gracefully at at (an agent restart: Shutdown with its state DB open, the tasks left running) and restarts for later from its state DB"},
	RunnerBuildFailure: {required: []string{ParamRate}, optional: perCall, applies: anyTask, unswarmed: true,
		what: "the alloc runner factory fails for an alloc (AR-3): the client must report the alloc failed"},
	AllocDirLoss: {required: []string{ParamRate}, optional: perCall, applies: anyCrash, unswarmed: true,
		what: "an alloc's directory is gone when the client restarts after a crash (its data dir was wiped): the runner's Restore fails (STATE-3 (4))"},
}

// Classes returns every class in drawing order (a class added later comes
// last, so that the plans drawn before it keep their draws).
func Classes() []Class {
	return []Class{
		DriverStartDelay, DriverStartFailure, DriverExit, DriverStopHang,
		ClientCrash, DriverRecoverFailure, CSIMountLatency, CSIMountFailure,
		StateDBWriteFailure, RPCLatency, RPCFailure, RPCPartition, ClockJump,
		DriverStopFailure, NodeDisconnect, AllocDirLoss, ClientRestart, RunnerBuildFailure,
	}
}

// Swarmed reports whether Draw may switch the class on; an unswarmed one
// is added only by a property's own draw.
func (c Class) Swarmed() bool { return !classes[c].unswarmed }

// Known reports whether c is a class.
func (c Class) Known() bool {
	_, ok := classes[c]
	return ok
}

// Timed reports whether the class fires once at an instant (at=, for=)
// rather than per call (rate=).
func (c Class) Timed() bool { return classes[c].timed }

// Applies reports whether the class can happen in a scenario of shape s.
func (c Class) Applies(s Shape) bool {
	info, ok := classes[c]
	return ok && info.applies(s)
}

// Describe says in one line what the class does.
func (c Class) Describe() string { return classes[c].what }

// params returns the class's parameters in print order.
func (c Class) params() []string {
	info := classes[c]
	return slices.Concat(info.required, info.optional)
}
