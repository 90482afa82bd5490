package rawexec

import (
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
)

// Name is the driver's name as tasks spell it (DATA-4 Task.Driver).
const Name = "raw_exec"

// DefaultPath is the tasks' PATH when Config.Path is empty.
const DefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// DefaultPollInterval is how often a recovered task is checked for its
// exit when Config.PollInterval is zero.
const DefaultPollInterval = time.Second

// Config configures a Driver. Clock is required; with only a Clock set it
// is a raw_exec driver with PATH DefaultPath and no other inherited
// environment, polling recovered tasks every second and no observer.
type Config struct {
	// Clock is the only source of time (SPEC DET-1): handle StartedAt,
	// the StopTask force kill and the recovered-task poll. Required: New
	// panics when it is nil (the production adapter passes clock.New()).
	// Only Now and AfterFunc are used.
	Clock clock.Clock
	// Path is the PATH of every task's environment (a task's Env may
	// override it) and where a command without a slash is looked up.
	// The driver never reads its own environment (DET-1): the caller
	// passes it in. Empty: DefaultPath.
	Path string
	// Env is the base environment of every task, under PATH and the
	// task's Env (how an agent passes its own environment on, as Nomad
	// passes the host's to raw_exec tasks). The driver copies it. Nil:
	// none, only PATH.
	Env map[string]string
	// PollInterval is how often a recovered task, which is not this
	// process's child, is checked for its exit. Zero or negative:
	// DefaultPollInterval.
	PollInterval time.Duration
	// OnEvent, if set, observes every driver call and every task exit,
	// in order. It is called with the driver's lock held: it must return
	// quickly and must not call the driver.
	OnEvent func(Event)
}

// Op names a traced driver operation (drivers.Op).
type Op = drivers.Op

// Traced operations: StartTask, RecoverTask, WaitTask, SignalTask and
// DestroyTask when they succeed; StopTask when it signals a running task
// (its completion is the task's Exit event); one ForceKill per force kill
// and one Exit per task exit. Failed calls are not traced.
const (
	OpStart        = drivers.OpStart
	OpRecover      = drivers.OpRecover
	OpWait         = drivers.OpWait
	OpStop         = drivers.OpStop
	OpForceKill Op = "ForceKill"
	OpSignal       = drivers.OpSignal
	OpDestroy      = drivers.OpDestroy
	OpExit         = drivers.OpExit
)

// Event is one traced driver operation (drivers.Event).
type Event = drivers.Event
