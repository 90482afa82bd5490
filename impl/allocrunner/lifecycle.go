package allocrunner

import "sync"

// lifecycle is the alloc runner's run/shutdown/destroy bookkeeping: which
// of them were asked for, whether the task runners were launched, and the
// channels AR-1 promises. Every flag but destroyed is guarded by mu;
// destroyed is guarded by persistSem. Every channel is closed once.
type lifecycle struct {
	mu sync.Mutex
	// persistSem guards destroyed and is held across the state DB writes
	// that must not resurrect a deleted alloc bucket. A binary semaphore
	// (a channel of capacity one) rather than a mutex: a simulator may
	// hold a state DB write at its gate, and a goroutine waiting on a
	// channel is durably blocked, so its settle (synctest.Wait) still
	// returns (DESIGN "Quiescence"). mu is never held across a write.
	persistSem chan struct{}
	destroyed  bool
	// runStarted: Run began its work. runDisabled: Shutdown or Destroy
	// came first, so Run does nothing.
	runStarted, runDisabled bool
	// tasksLaunched: Run decided to launch the task runners (set before
	// it starts them, so that a kill rule may claim its kill at once;
	// launchDecided closes only once they are started).
	tasksLaunched bool
	// setupDone: prerun succeeded (or was not needed) and the start gates
	// are open; kill rules apply only then.
	setupDone bool
	// killRequested: some kill procedure started (AR-9 rule, all tasks
	// finished, server stop, Destroy) or prerun failed and every task was
	// marked failed.
	killRequested bool
	// killersClosed: Run no longer accepts background kill procedures.
	killersClosed bool

	shutdownLaunched, destroyLaunched bool

	// launchDecided closes once Run refused to launch the task runners,
	// or started every one of them (see launched).
	launchDecided                               chan struct{}
	waitCh, destroyCh, shutdownCh               chan struct{}
	launchOnce, waitOnce, destroyOnce, shutOnce sync.Once
}

func (l *lifecycle) init() {
	l.persistSem = make(chan struct{}, 1)
	l.launchDecided = make(chan struct{})
	l.waitCh = make(chan struct{})
	l.destroyCh = make(chan struct{})
	l.shutdownCh = make(chan struct{})
}

func (l *lifecycle) closeWait()     { l.waitOnce.Do(func() { close(l.waitCh) }) }
func (l *lifecycle) closeDestroy()  { l.destroyOnce.Do(func() { close(l.destroyCh) }) }
func (l *lifecycle) closeShutdown() { l.shutOnce.Do(func() { close(l.shutdownCh) }) }

// closeLaunchLocked publishes the launch decision to waitLaunch; l.mu
// must be held.
func (l *lifecycle) closeLaunchLocked() {
	l.launchOnce.Do(func() { close(l.launchDecided) })
}

// beginRun reports whether Run should do its work (once, and only if
// neither Shutdown nor Destroy came first).
func (l *lifecycle) beginRun() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.runStarted || l.runDisabled {
		return false
	}
	l.runStarted = true
	return true
}

// decideLaunch records whether Run launches the task runners: not once a
// shutdown was asked for. It marks the setup done when setupOK. A refusal
// is published at once; a launch by launched, once the caller started
// every task runner.
func (l *lifecycle) decideLaunch(setupOK bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	launch := !l.shutdownLaunched
	if launch && setupOK {
		l.setupDone = true
	}
	l.tasksLaunched = launch
	if !launch {
		l.closeLaunchLocked()
	}
	return launch
}

// launched publishes a launch once TaskRunner.Start returned for every
// task runner, so that a kill procedure or a shutdown, which waits for it
// (waitLaunch), finds every task runner started: its Kill then waits for
// the task's run, whichever goroutine it runs on. Published before the
// starts, a kill on another goroutine (the task state handler's
// all-tasks-finished kill, woken by Run's first pass; a server stop's)
// could reach a task runner Run had not started yet, whose Kill returns
// at once: a leader's kill then went on to the sidecars at once or only
// after the leader's run, as the scheduler had it (DET-4).
func (l *lifecycle) launched() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closeLaunchLocked()
}

// waitLaunch blocks until Run decided about launching the task runners
// and, if it launched them, started them (launched); it reports whether
// it launched them.
func (l *lifecycle) waitLaunch() bool {
	<-l.launchDecided
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.tasksLaunched
}

// requestKill records that a kill procedure (or the prerun failure's
// mark-failed kill) started.
func (l *lifecycle) requestKill() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.killRequested = true
}

// claimKill records a kill request and reports whether it is the first.
func (l *lifecycle) claimKill() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	first := !l.killRequested
	l.killRequested = true
	return first
}

// claimAutoKill reports whether a kill the runner starts by itself (an
// AR-9 kill rule, or all tasks finished) may start now, and if so records
// it: only after a successful setup with the tasks launched, only once,
// never after another kill and never while shutting down.
func (l *lifecycle) claimAutoKill() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.setupDone || !l.tasksLaunched || l.killRequested || l.shutdownLaunched || l.killersClosed {
		return false
	}
	l.killRequested = true
	return true
}

// killOrShutdown reports whether a kill or a shutdown was asked for.
func (l *lifecycle) killOrShutdown() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.killRequested || l.shutdownLaunched
}

func (l *lifecycle) isSetupDone() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.setupDone
}

func (l *lifecycle) isShuttingDown() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.shutdownLaunched
}

func (l *lifecycle) isDestroyed() bool {
	l.persistSem <- struct{}{}
	defer func() { <-l.persistSem }()
	return l.destroyed
}

// closeKillers stops accepting background kill procedures.
func (l *lifecycle) closeKillers() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.killersClosed = true
}

// addKiller runs add under the lock unless killers are closed.
func (l *lifecycle) addKiller(add func()) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.killersClosed {
		return false
	}
	add()
	return true
}

// requestShutdown records a Shutdown; ok is false if a shutdown or destroy
// was already asked for. If Run has not started it never will.
func (l *lifecycle) requestShutdown() (runStarted, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.destroyLaunched || l.shutdownLaunched {
		return false, false
	}
	l.shutdownLaunched = true
	if !l.runStarted {
		l.runDisabled = true
		l.closeLaunchLocked()
	}
	return l.runStarted, true
}

// requestDestroy records a Destroy; ok is false if one was already asked
// for. afterShutdown tells that a shutdown came first.
func (l *lifecycle) requestDestroy() (runStarted, afterShutdown, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.destroyLaunched {
		return false, false, false
	}
	l.destroyLaunched = true
	if !l.runStarted {
		l.runDisabled = true // Destroy launches the task runners itself
	}
	return l.runStarted, l.shutdownLaunched, true
}

// unlessDestroyed runs fn under the lock unless the runner is destroyed,
// so that a persist never resurrects a deleted alloc bucket.
func (l *lifecycle) unlessDestroyed(fn func() error) error {
	l.persistSem <- struct{}{}
	defer func() { <-l.persistSem }()
	if l.destroyed {
		return nil
	}
	return fn()
}

// markDestroyed runs fn (the state DB delete) and marks the runner
// destroyed, atomically with respect to unlessDestroyed.
func (l *lifecycle) markDestroyed(fn func()) {
	l.persistSem <- struct{}{}
	defer func() { <-l.persistSem }()
	fn()
	l.destroyed = true
}
