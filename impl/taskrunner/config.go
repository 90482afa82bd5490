package taskrunner

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"

	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
)

// Config is everything a task runner is given by its alloc runner.
//
// Required: Alloc (with its Job and TaskGroup), Task, Clock (there is no
// real-clock default, DET-1), StateDB, DriverManager, AllocDir and
// HookResources. Zero values of the others: Logger discards; Rand is a
// fixed-seed source; ClientConfig is the zero config (30s max kill timeout,
// UTC local zone); HookStats emits nothing; StateUpdated is not called;
// a nil StartConditionMetCh or ServersContactedCh counts as closed;
// Policies are model/'s.
//
// The task runner only reads Alloc's job (and so the task definitions
// SetAlloc and Update take from it): an alloc runner hands all its task
// runners one job, its own.
type Config struct {
	Alloc         *structs.Allocation
	Task          *structs.Task
	Logger        *slog.Logger
	Clock         clock.Clock
	Rand          *rand.Rand // the task's own source, derived by the AR
	ClientConfig  *interfaces.ClientConfig
	StateDB       interfaces.StateDB
	DriverManager drivers.DriverManager
	AllocDir      interfaces.AllocDir
	// HookResources is the AR's one hook resources object (HOOKRES-1) as
	// the volumes prestart reads it (HOOKRES-3).
	HookResources CSIMounts
	// HookStats emits task prestart telemetry (TELEM-3); the AR builds it
	// with the alloc's namespace, or the no-op handler (TELEM-5).
	HookStats hookstats.Handler
	// StateUpdated is called (without TR locks held) after every task
	// state change so the AR can recompute the alloc and run kill rules.
	StateUpdated func()
	// StartConditionMetCh closes when lifecycle ordering lets the task
	// start (AR-9).
	StartConditionMetCh <-chan struct{}
	// ServersContactedCh closes after the first alloc pull (STATE-4).
	ServersContactedCh <-chan struct{}
	// Policies are the decisions taken from model/ (policy.go).
	Policies Policies
}

// CSIMounts is the read side of the hook resources (HOOKRES-2).
type CSIMounts interface {
	GetCSIMounts() map[string]*interfaces.CSIMountPoint
}

// fixedSeed seeds the source of a Config without Rand.
const fixedSeed = 0x7461736b72756e // "taskrun"

// withDefaults checks the required fields and returns a copy with the
// documented zero values filled in.
func (c *Config) withDefaults() (*Config, error) {
	if c == nil {
		return nil, errors.New("task runner config has no value")
	}
	for _, req := range []struct {
		name string
		nil  bool
	}{
		{"Alloc", c.Alloc == nil},
		{"Task", c.Task == nil},
		{"Clock", c.Clock == nil},
		{"StateDB", c.StateDB == nil},
		{"DriverManager", c.DriverManager == nil},
		{"AllocDir", c.AllocDir == nil},
		{"HookResources", c.HookResources == nil},
	} {
		if req.nil {
			return nil, fmt.Errorf("task runner config has no %s", req.name)
		}
	}
	if c.Alloc.LookupTaskGroup() == nil {
		return nil, fmt.Errorf("alloc %q has no task group %q", c.Alloc.ID, c.Alloc.TaskGroup)
	}
	out := *c
	out.Policies = c.Policies.withDefaults()
	if out.Logger == nil {
		out.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if out.Rand == nil {
		out.Rand = rand.New(rand.NewPCG(fixedSeed, fixedSeed))
	}
	if out.ClientConfig == nil {
		out.ClientConfig = &interfaces.ClientConfig{}
	}
	if out.HookStats == nil {
		out.HookStats = hookstats.New(hookstats.Config{Disabled: true})
	}
	if out.StateUpdated == nil {
		out.StateUpdated = func() {}
	}
	if out.StartConditionMetCh == nil {
		out.StartConditionMetCh = closedCh()
	}
	if out.ServersContactedCh == nil {
		out.ServersContactedCh = closedCh()
	}
	return &out, nil
}

func closedCh() <-chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}
