package mutants

import (
	"context"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/allocsim/allocsim/impl/allocrunner"
	"github.com/allocsim/allocsim/impl/hookres"
	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/taskrunner"
	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
)

// restore16623 is the #16623 mutants' alloc runner (HOOKRES-4): Nomad
// 1.5.2's restore path, where a restored alloc's task runners run while
// its prerun hooks run (AR-4: after), so a restored prestart races the
// CSI hook; with #16623's read-modify-write setter (rmw) or the task
// runners' late, unsynchronised hook resources (late). An alloc without
// CSI volumes has nothing to race: the reference.
func restore16623(rmw, late bool) interfaces.AllocRunnerFactory {
	return func(cfg *interfaces.Config) (interfaces.AllocRunner, error) {
		if tg := cfg.Alloc.LookupTaskGroup(); tg == nil || !slices.ContainsFunc(slices.Collect(maps.Values(tg.Volumes)), func(v *structs.VolumeRequest) bool {
			return v != nil && v.Type == structs.VolumeTypeCSI
		}) {
			return allocrunner.NewAllocRunner(cfg)
		}
		r := &restoreRace{late: late}
		c := *cfg
		if rmw && cfg.CSIManager != nil {
			c.CSIManager = rmwMounts{CSIManager: cfg.CSIManager, r: r}
		}
		ar, err := allocrunner.Factory(allocrunner.Policies{NewTaskRunner: r.newTaskRunner})(&c)
		if err != nil {
			return nil, err
		}
		r.AllocRunner = ar
		for _, t := range r.tasks {
			go t.forward(ar.WaitCh())
		}
		return r, nil
	}
}

// restoreRace launches a restored alloc's task runners before the
// reference's Run (whose Shutdown stops them, launched or not).
type restoreRace struct {
	runner
	tasks    []*raceTask // in name order, as the alloc runner builds them
	hookRes  *hookres.HookResources
	late     bool
	restored atomic.Bool
}

func (r *restoreRace) newTaskRunner(cfg *taskrunner.Config) (allocrunner.TaskRunner, error) {
	c := *cfg
	t := &raceTask{r: r, gate: cfg.StartConditionMetCh, open: make(chan struct{})}
	c.StartConditionMetCh = t.open
	r.hookRes, _ = cfg.HookResources.(*hookres.HookResources)
	if r.late {
		t.late = &lateResources{}
		c.HookResources = t.late
	}
	tr, err := taskrunner.NewTaskRunner(&c) // on an error, the alloc runner fails
	t.TaskRunner = tr
	r.tasks = append(r.tasks, t)
	return t, err
}

func (r *restoreRace) Restore() error {
	r.restored.Store(true)
	return r.AllocRunner.Restore()
}

// Run first launches a restored alloc that should run (AR-4): every task
// runner started, the gates open whose start condition the restored
// states meet.
func (r *restoreRace) Run() {
	if a := r.AllocRunner.Alloc(); r.restored.Load() && !a.ServerTerminal() && !a.ClientTerminal() {
		states := map[string]*structs.TaskState{}
		for _, t := range r.tasks {
			if s := t.TaskState(); s != nil {
				states[t.Task().Name] = s
			}
		}
		startable := status.Startable(a.LookupTaskGroup().Tasks, states)
		for _, t := range r.tasks {
			if slices.Contains(startable, t.Task().Name) {
				t.openGate()
			}
			t.TaskRunner.Start()
		}
	}
	r.AllocRunner.Run()
}

// handOff gives the task runners the hook resources as the alloc runner
// launches them, after the prerun hooks (on the restore path, late).
func (r *restoreRace) handOff() {
	for _, t := range r.tasks {
		if t.late != nil {
			t.late.res = r.hookRes // the data race of #16623
		}
	}
}

// raceTask is a reference task runner whose start gate the restore path
// may open early, else the alloc runner's opens it (forward, until Run
// is over).
type raceTask struct {
	allocrunner.TaskRunner
	r        *restoreRace
	gate     <-chan struct{} // the alloc runner's start gate
	open     chan struct{}   // the task runner's
	openOnce sync.Once
	late     *lateResources
}

func (t *raceTask) openGate() { t.openOnce.Do(func() { close(t.open) }) }

func (t *raceTask) forward(done <-chan struct{}) {
	select {
	case <-t.gate:
		t.openGate()
	case <-done:
	}
}

// Start is the alloc runner's launch (a no-op for one launched early).
func (t *raceTask) Start() {
	t.r.handOff()
	t.TaskRunner.Start()
}

// lateResources is a Nomad 1.5.2 task runner's hook resources: nil until
// the hand-off, without synchronisation (HOOKRES-4).
type lateResources struct{ res *hookres.HookResources }

func (l *lateResources) GetCSIMounts() map[string]*interfaces.CSIMountPoint {
	return l.res.GetCSIMounts()
}

// rmwMounts reads the mount map, adds the volume and sets it back after
// each mount (HOOKRES-2 broken): a reader between mounts sees a part.
type rmwMounts struct {
	interfaces.CSIManager
	r *restoreRace
}

func (m rmwMounts) MountVolume(ctx context.Context, allocID, alias string, vol *structs.VolumeRequest) (*interfaces.CSIMountPoint, error) {
	mp, err := m.CSIManager.MountVolume(ctx, allocID, alias, vol)
	if err == nil && mp != nil && m.r.hookRes != nil {
		mounts := m.r.hookRes.GetCSIMounts()
		mounts[alias] = &interfaces.CSIMountPoint{Source: mp.Source, IsDevice: mp.IsDevice}
		m.r.hookRes.SetCSIMounts(mounts)
	}
	return mp, err
}
