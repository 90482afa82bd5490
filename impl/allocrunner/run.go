package allocrunner

import (
	"fmt"
	"sync"

	"github.com/allocsim/allocsim/model/structs"
)

// Run implements interfaces.AllocRunner (AR-1): it runs the alloc and
// returns when every task runner has returned (after postrun) or on
// shutdown; it closes WaitCh on return. See the package documentation for
// the steps. A second call, or a call after Shutdown or Destroy (which
// then close WaitCh themselves), returns at once.
func (ar *allocRunner) Run() {
	if !ar.life.beginRun() {
		return
	}
	defer ar.life.closeWait()
	go ar.handleTaskStateUpdates()
	go ar.handleAllocUpdates()
	ar.taskStateUpdated() // push the initial state (Received events)

	setupOK := ar.setup()
	launched := ar.launchTasks(setupOK)
	if launched {
		for _, name := range ar.taskNames {
			<-ar.tasks[name].WaitCh()
		}
	}
	ar.stopHandlers()
	if !launched || ar.life.isShuttingDown() {
		return // AR-4: no postrun on shutdown
	}
	ar.runPostrun()
}

// shouldRun is AR-4's condition for prerun and restarts: the alloc is
// neither server- nor client-terminal, and its locally computed status is
// not complete, failed or lost.
func (ar *allocRunner) shouldRun() bool {
	server := ar.serverAlloc()
	if server.ServerTerminal() || server.ClientTerminal() {
		return false
	}
	return !structs.ClientStatusTerminal(ar.clientState(ar.taskStates()).ClientStatus)
}

// setup runs the prerun hooks if the alloc should run (AR-4) and reports
// whether the tasks may start. On a prerun failure that no kill or
// shutdown caused, every task runner is marked failed and killed with
// Setup Failure.
func (ar *allocRunner) setup() bool {
	if !ar.shouldRun() {
		// Nothing to set up: the task runners see the terminal alloc.
		return true
	}
	err := ar.runPrerun(ar.hookCtx)
	if err == nil {
		return true
	}
	if ar.life.killOrShutdown() {
		ar.logger.Info("prerun interrupted", "error", err)
		return false
	}
	ar.logger.Error("prerun failed", "error", err)
	ar.life.requestKill()
	reason := fmt.Sprintf(MsgSetupFailed, err)
	for _, name := range ar.taskNames {
		ar.tasks[name].MarkFailedKill(reason)
	}
	return false
}

// launchTasks starts every task runner's Run unless a shutdown came
// first. After a successful setup it opens the start gates whose AR-9
// condition holds before the first task runs, unless the restored states
// call for a kill rule. An alloc that is server-terminal when its tasks
// launch is killed at once: it cannot newly become so through an update
// (AR-10), and its task runners hold before prestart until killed.
func (ar *allocRunner) launchTasks(setupOK bool) bool {
	if !ar.life.decideLaunch(setupOK) {
		return false
	}
	// A stopped alloc is killed here unless a kill is already under way
	// (a stop update during prerun). Either way only poststop gates open.
	stopped := ar.serverAlloc().ServerTerminal() && ar.life.claimKill()
	if ar.life.isSetupDone() {
		ar.gates.enable()
		states := ar.taskStates()
		if _, kill := ar.policy.KillRule(ar.taskDefs, states); !kill {
			ar.updateGates(states)
		}
	}
	for _, name := range ar.taskNames {
		ar.tasks[name].Start()
	}
	ar.life.launched() // kills and a shutdown reach started task runners only
	if stopped {
		ar.startKill("alloc is server-terminal")
	}
	ar.taskStateUpdated() // kill rules and gates on the launched tasks
	return true
}

// stopHandlers ends the background goroutines in dependency order: the
// update handler (it may be killing), the kill procedures, then the task
// state handler, which makes a final pass so the last state is pushed.
func (ar *allocRunner) stopHandlers() {
	ar.updates.close()
	<-ar.updateHandlerDone
	ar.life.closeKillers()
	ar.killers.Wait()
	close(ar.handlersStop)
	<-ar.stateHandlerDone
}

// updateGates opens the start gates whose condition holds; once a kill
// was requested only poststop gates still open (the others' tasks are
// being killed).
func (ar *allocRunner) updateGates(states map[string]*structs.TaskState) {
	ar.gates.update(ar.taskDefs, states, ar.life.killOrShutdown())
}

// startGates are the task runners' StartConditionMetCh channels (AR-9
// start order). Each closes once, when its task is startable
// (Policies.Startable: model/status.MayStart holds), and only after the
// gates are enabled by a successful setup.
type startGates struct {
	startable func(tasks []*structs.Task, states map[string]*structs.TaskState) []string

	mu      sync.Mutex
	enabled bool
	chans   map[string]chan struct{}
	opened  map[string]bool
}

func newStartGates(names []string, startable func([]*structs.Task, map[string]*structs.TaskState) []string) *startGates {
	g := &startGates{startable: startable, chans: map[string]chan struct{}{}, opened: map[string]bool{}}
	for _, n := range names {
		g.chans[n] = make(chan struct{})
	}
	return g
}

func (g *startGates) ch(name string) <-chan struct{} { return g.chans[name] }

func (g *startGates) enable() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.enabled = true
}

// update opens every gate whose condition holds now (only poststop ones
// when poststopOnly) and returns the names opened, in name order.
func (g *startGates) update(tasks []*structs.Task, states map[string]*structs.TaskState, poststopOnly bool) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.enabled {
		return nil
	}
	poststop := map[string]bool{}
	for _, t := range tasks {
		poststop[t.Name] = t.IsPoststop()
	}
	var opened []string
	for _, name := range g.startable(tasks, states) {
		if g.opened[name] || (poststopOnly && !poststop[name]) {
			continue
		}
		g.opened[name] = true
		close(g.chans[name])
		opened = append(opened, name)
	}
	return opened
}
