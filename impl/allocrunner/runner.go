package allocrunner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/internal/defect"
	"github.com/allocsim/allocsim/impl/taskrunner"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/benbjohnson/clock"
)

// allocRunner is the reference interfaces.AllocRunner (SPEC §7).
type allocRunner struct {
	id           string
	logger       *slog.Logger
	clock        clock.Clock
	clientConfig *interfaces.ClientConfig
	stateDB      interfaces.StateDB
	stateUpdater interfaces.StateUpdater
	prevWatcher  interfaces.PrevAllocWatcher
	prevMigrator interfaces.PrevAllocMigrator

	allocDir interfaces.AllocDir
	// hookResources is the one object of HOOKRES-1: built before any task
	// runner, handed to all of them, never replaced.
	hookResources *hookres.HookResources
	// prerunStats instruments alloc prerun hooks (TELEM-3).
	prerunStats hookstats.Handler
	// hooks are the alloc hooks in registration order (AR-4).
	hooks []interfaces.RunnerHook
	csi   *csiHook

	// The group's tasks are fixed at construction: taskDefs for the
	// model/status rules, taskNames sorted (DET-2), tasks by name.
	taskDefs  []*structs.Task
	taskNames []string
	tasks     map[string]taskRunner
	gates     *startGates

	allocMu sync.RWMutex
	alloc   *structs.Allocation // latest server alloc; replaced, never mutated

	stateMu        sync.Mutex
	statusOverride string               // SetClientStatus
	finishedAt     map[string]time.Time // AR-8 stamps for terminal allocs
	acked          *structs.AllocState  // AcknowledgeState (SYNC-2)

	// persistMu guards persisted, the alloc PersistState built last
	// (persist.go).
	persistMu sync.Mutex
	persisted builtAlloc

	life lifecycle

	// hookCtx is the prerun hooks' context: cancelled at a kill's start
	// and on shutdown. shutdownCtx is cancelled on shutdown only.
	hookCtx        context.Context
	hookCancel     context.CancelFunc
	shutdownCtx    context.Context
	shutdownCancel context.CancelFunc

	// taskStateUpdatedCh coalesces task runners' StateUpdated calls for
	// the task state handler.
	taskStateUpdatedCh chan struct{}
	handlersStop       chan struct{}
	stateHandlerDone   chan struct{}
	updateHandlerDone  chan struct{}
	killers            sync.WaitGroup
	// killSem and updateHookSem are binary semaphores, channels rather than
	// mutexes because their holders wait on the clock: a goroutine blocked
	// on a channel is durably blocked, so the simulator's settle
	// (synctest.Wait) still returns (DESIGN "Quiescence").
	killSem       chan struct{} // one kill procedure at a time (DET-3)
	updateHookSem chan struct{} // update hook passes serialised (AR-4)

	updates     *updateQueue
	broadcaster *broadcaster

	// defects are a mutant's deliberate defects (impl/mutants); zero is
	// the reference runner.
	defects defect.Set
	// restored is set by Restore (the #16623 mutants' restore path,
	// handoff.go).
	restored atomic.Bool
	// launchedEarly is set when the #16623 mutants launched the task
	// runners before the prerun hooks.
	launchedEarly bool
}

var _ interfaces.AllocRunner = (*allocRunner)(nil)

// NewAllocRunner builds the reference alloc runner of cfg.Alloc (AR-2). It
// is an interfaces.AllocRunnerFactory. It builds the alloc dir (not on
// storage yet), the hook resources, the alloc hooks and one task runner
// per task of the alloc's group, in task-name order, each with a rand
// source derived from cfg.Rand in that order; then it persists the alloc
// (STATE-2 "on add").
func NewAllocRunner(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	ar, err := newAllocRunner(cfg, newTaskRunner)
	if err != nil {
		return nil, err
	}
	return ar, nil
}

// mutation is what a mutant changes (WithDefects); the zero value is the
// reference runner.
type mutation struct {
	defects defect.Set
	eval    taskrunner.ScheduleEvaluator
}

// WithDefects returns the factory of the reference alloc runner built with
// defects d and, if eval is not nil, evaluating task schedules with eval
// instead of model/schedule (SCHED-8). It exists for the mutants of
// impl/mutants; WithDefects(0, nil) behaves exactly as NewAllocRunner.
func WithDefects(d defect.Set, eval taskrunner.ScheduleEvaluator) interfaces.AllocRunnerFactory {
	m := mutation{defects: d, eval: eval}
	return func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
		ar, err := newMutatedAllocRunner(cfg, newTaskRunner, m)
		if err != nil {
			return nil, err
		}
		return ar, nil
	}
}

var _ interfaces.AllocRunnerFactory = NewAllocRunner

func checkConfig(cfg *interfaces.Config) error {
	if cfg == nil {
		return errors.New(msgNilConfig)
	}
	var missing []string
	for _, m := range []struct {
		name string
		nil  bool
	}{
		{"Alloc", cfg.Alloc == nil},
		{"Clock", cfg.Clock == nil},
		{"Rand", cfg.Rand == nil},
		{"ClientConfig", cfg.ClientConfig == nil},
		{"StateDB", cfg.StateDB == nil},
		{"StateUpdater", cfg.StateUpdater == nil},
		{"AllocDirFactory", cfg.AllocDirFactory == nil},
		{"Metrics", cfg.Metrics == nil && cfg.ClientConfig != nil && !cfg.ClientConfig.DisableAllocationHookMetrics},
	} {
		if m.nil {
			missing = append(missing, fmt.Sprintf(msgConfigMissing, m.name))
		}
	}
	if len(missing) > 0 {
		errs := make([]error, len(missing))
		for i, m := range missing {
			errs[i] = errors.New(m)
		}
		return errors.Join(errs...)
	}
	if cfg.Alloc.LookupTaskGroup() == nil {
		return fmt.Errorf(msgNoTaskGroup, cfg.Alloc.ID, cfg.Alloc.TaskGroup)
	}
	return nil
}

func newAllocRunner(cfg *interfaces.Config, newTR taskRunnerFactory) (*allocRunner, error) {
	return newMutatedAllocRunner(cfg, newTR, mutation{})
}

func newMutatedAllocRunner(cfg *interfaces.Config, newTR taskRunnerFactory, m mutation) (*allocRunner, error) {
	if err := checkConfig(cfg); err != nil {
		return nil, err
	}
	alloc := cfg.Alloc.Copy()
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	logger = logger.With("alloc_id", alloc.ID)
	namespace := allocNamespace(alloc)

	ar := &allocRunner{
		id:                 alloc.ID,
		logger:             logger,
		clock:              cfg.Clock,
		clientConfig:       cfg.ClientConfig,
		stateDB:            cfg.StateDB,
		stateUpdater:       cfg.StateUpdater,
		prevWatcher:        cfg.PrevAllocWatcher,
		prevMigrator:       cfg.PrevAllocMigrator,
		allocDir:           cfg.AllocDirFactory(alloc.ID),
		hookResources:      hookres.New(),
		alloc:              alloc,
		finishedAt:         map[string]time.Time{},
		tasks:              map[string]taskRunner{},
		taskStateUpdatedCh: make(chan struct{}, 1),
		handlersStop:       make(chan struct{}),
		stateHandlerDone:   make(chan struct{}),
		updateHandlerDone:  make(chan struct{}),
		killSem:            make(chan struct{}, 1),
		updateHookSem:      make(chan struct{}, 1),
		updates:            newUpdateQueue(),
		broadcaster:        newBroadcaster(),
		defects:            m.defects,
	}
	ar.updates.olderWins = m.defects.Has(defect.UpdateOlderWins)
	ar.life.init()
	ar.hookCtx, ar.hookCancel = context.WithCancel(context.Background())
	ar.shutdownCtx, ar.shutdownCancel = context.WithCancel(context.Background())
	disabled := cfg.ClientConfig.DisableAllocationHookMetrics && !m.defects.Has(defect.TelemIgnoresSwitch)
	ar.prerunStats = hookstats.New(hookstats.Config{
		Kind: hookstats.AllocHook, Metrics: cfg.Metrics, Clock: cfg.Clock,
		BaseLabels: cfg.BaseLabels, Namespace: namespace, Disabled: disabled,
	})
	taskStats := hookstats.New(hookstats.Config{
		Kind: hookstats.TaskHook, Metrics: cfg.Metrics, Clock: cfg.Clock,
		BaseLabels: cfg.BaseLabels, Namespace: namespace, Disabled: disabled,
	})
	if m.defects.Has(defect.TelemWallclock) && !disabled {
		ar.prerunStats = wallclockStats(ar.prerunStats, cfg.Clock)
		taskStats = wallclockStats(taskStats, cfg.Clock)
	}
	ar.hooks = ar.newHooks(cfg.CSIManager)

	tg := alloc.LookupTaskGroup()
	for _, t := range tg.Tasks {
		if t != nil {
			ar.taskDefs = append(ar.taskDefs, t)
			ar.taskNames = append(ar.taskNames, t.Name)
		}
	}
	slices.Sort(ar.taskNames)
	ar.gates = newStartGates(ar.taskNames)

	ar.persistAlloc(alloc) // STATE-2: alloc on add

	for _, name := range ar.taskNames { // DET-2: rand sources in name order
		trCfg := &taskrunner.Config{
			Alloc:               alloc.Copy(),
			Task:                tg.LookupTask(name).Copy(),
			Logger:              logger.With("task", name),
			Clock:               cfg.Clock,
			Rand:                rand.New(rand.NewPCG(cfg.Rand.Uint64(), cfg.Rand.Uint64())),
			ClientConfig:        cfg.ClientConfig,
			StateDB:             cfg.StateDB,
			DriverManager:       cfg.DriverManager,
			AllocDir:            ar.allocDir,
			HookResources:       ar.hookResources,
			HookStats:           taskStats,
			StateUpdated:        ar.taskStateUpdated,
			StartConditionMetCh: ar.gates.ch(name),
			ServersContactedCh:  cfg.ServersContactedCh,
			Defects:             m.defects,
			Evaluate:            m.eval,
		}
		tr, err := newTR(trCfg)
		if err != nil {
			return nil, fmt.Errorf(msgNewTaskRunner, name, err)
		}
		ar.tasks[name] = tr
	}
	return ar, nil
}

// allocNamespace is the alloc's namespace for telemetry labels (TELEM-2):
// its own, else its job's, else the default.
func allocNamespace(a *structs.Allocation) string {
	switch {
	case a.Namespace != "":
		return a.Namespace
	case a.Job != nil && a.Job.Namespace != "":
		return a.Job.Namespace
	}
	return structs.DefaultNamespace
}

// serverAlloc returns the latest server alloc; callers must not mutate it.
func (ar *allocRunner) serverAlloc() *structs.Allocation {
	ar.allocMu.RLock()
	defer ar.allocMu.RUnlock()
	return ar.alloc
}

// setServerAlloc stores a newer server alloc.
func (ar *allocRunner) setServerAlloc(a *structs.Allocation) {
	ar.allocMu.Lock()
	defer ar.allocMu.Unlock()
	ar.alloc = a
}

// Alloc implements interfaces.AllocRunner: a deep copy of the latest
// server alloc with the client-side fields computed now.
func (ar *allocRunner) Alloc() *structs.Allocation {
	return ar.clientAlloc(ar.taskStates())
}

// GetAllocDir implements interfaces.AllocRunner.
func (ar *allocRunner) GetAllocDir() interfaces.AllocDir { return ar.allocDir }

// IsWaiting implements interfaces.AllocRunner: the previous alloc watcher
// is waiting.
func (ar *allocRunner) IsWaiting() bool {
	return ar.prevWatcher != nil && ar.prevWatcher.IsWaiting()
}

// IsMigrating implements interfaces.AllocRunner: the previous alloc
// migrator is migrating.
func (ar *allocRunner) IsMigrating() bool {
	return ar.prevMigrator != nil && ar.prevMigrator.IsMigrating()
}

// WaitCh implements interfaces.AllocRunner.
func (ar *allocRunner) WaitCh() <-chan struct{} { return ar.life.waitCh }

// DestroyCh implements interfaces.AllocRunner.
func (ar *allocRunner) DestroyCh() <-chan struct{} { return ar.life.destroyCh }

// ShutdownCh implements interfaces.AllocRunner.
func (ar *allocRunner) ShutdownCh() <-chan struct{} { return ar.life.shutdownCh }

// IsDestroyed implements interfaces.AllocRunner.
func (ar *allocRunner) IsDestroyed() bool { return ar.life.isDestroyed() }

// Listener implements interfaces.AllocRunner.
func (ar *allocRunner) Listener() interfaces.AllocListener { return ar.broadcaster.listen() }
