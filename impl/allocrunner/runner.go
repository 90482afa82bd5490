package allocrunner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/hookstats"
	"github.com/allocsim/allocsim/impl/interfaces"
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

	// policy are the decisions taken from model/ (policy.go).
	policy Policies

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
	tasks     map[string]TaskRunner
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
}

var _ interfaces.AllocRunner = (*allocRunner)(nil)

// NewAllocRunner builds the reference alloc runner of cfg.Alloc (AR-2). It
// is an interfaces.AllocRunnerFactory. It builds the alloc dir (not on
// storage yet), the hook resources, the alloc hooks and one task runner
// per task of the alloc's group, in task-name order, each with a rand
// source derived from cfg.Rand in that order; then it persists the alloc
// (STATE-2 "on add").
func NewAllocRunner(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
	return Factory(Policies{})(cfg)
}

var _ interfaces.AllocRunnerFactory = NewAllocRunner

func checkConfig(cfg *interfaces.Config) error {
	if cfg == nil {
		return errors.New("alloc runner config is nil")
	}
	var missing []error
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
			missing = append(missing, fmt.Errorf("alloc runner config has no %s", m.name))
		}
	}
	if len(missing) > 0 {
		return errors.Join(missing...)
	}
	if cfg.Alloc.LookupTaskGroup() == nil {
		return fmt.Errorf("alloc %s has no task group %q in its job", cfg.Alloc.ID, cfg.Alloc.TaskGroup)
	}
	return nil
}

func newAllocRunner(cfg *interfaces.Config, p Policies) (*allocRunner, error) {
	if err := checkConfig(cfg); err != nil {
		return nil, err
	}
	alloc := cfg.Alloc.CopySkipJob() // the job is read only (interfaces.Config)
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
		policy:             p.withDefaults(),
		stateDB:            cfg.StateDB,
		stateUpdater:       cfg.StateUpdater,
		prevWatcher:        cfg.PrevAllocWatcher,
		prevMigrator:       cfg.PrevAllocMigrator,
		allocDir:           cfg.AllocDirFactory(alloc.ID),
		hookResources:      hookres.New(),
		alloc:              alloc,
		finishedAt:         map[string]time.Time{},
		tasks:              map[string]TaskRunner{},
		taskStateUpdatedCh: make(chan struct{}, 1),
		handlersStop:       make(chan struct{}),
		stateHandlerDone:   make(chan struct{}),
		updateHandlerDone:  make(chan struct{}),
		killSem:            make(chan struct{}, 1),
		updateHookSem:      make(chan struct{}, 1),
		broadcaster:        newBroadcaster(),
	}
	ar.updates = newUpdateQueue(ar.policy.Supersedes)
	ar.life.init()
	ar.hookCtx, ar.hookCancel = context.WithCancel(context.Background())
	ar.shutdownCtx, ar.shutdownCancel = context.WithCancel(context.Background())
	stats := hookstats.Config{Kind: hookstats.AllocHook, Metrics: cfg.Metrics, Clock: cfg.Clock,
		BaseLabels: cfg.BaseLabels, Namespace: namespace, Disabled: cfg.ClientConfig.DisableAllocationHookMetrics}
	ar.prerunStats = ar.policy.HookStats(stats)
	stats.Kind = hookstats.TaskHook
	taskStats := ar.policy.HookStats(stats)
	ar.hooks = ar.newHooks(cfg.CSIManager)

	tg := alloc.LookupTaskGroup()
	for _, t := range tg.Tasks {
		if t != nil {
			ar.taskDefs = append(ar.taskDefs, t)
			ar.taskNames = append(ar.taskNames, t.Name)
		}
	}
	slices.Sort(ar.taskNames)
	ar.gates = newStartGates(ar.taskNames, ar.policy.Startable)

	ar.persistAlloc(alloc) // STATE-2: alloc on add

	for _, name := range ar.taskNames { // DET-2: rand sources in name order
		trCfg := &taskrunner.Config{
			Alloc:               alloc.CopySkipJob(), // the job is read only (taskrunner.Config)
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
			Policies:            ar.policy.Task,
		}
		tr, err := ar.policy.NewTaskRunner(trCfg)
		if err != nil {
			return nil, fmt.Errorf("failed to build task runner %q: %w", name, err)
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
// server alloc, its job included, with the client-side fields computed
// now.
func (ar *allocRunner) Alloc() *structs.Allocation {
	a := ar.clientAlloc(ar.taskStatesCopy())
	a.Job = a.Job.Copy()
	return a
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
