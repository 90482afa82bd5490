package allocrunner

import (
	"sync"
)

// Destroy implements interfaces.AllocRunner (AR-1). It returns at once;
// DestroyCh closes when it is done:
//
//  1. kill the tasks (AR-9 order) unless a shutdown came first (then the
//     task runners are gone and the tasks keep running); if Run never
//     started, the task runners are run only to be killed, so that a
//     restored task's driver handle is not left behind;
//  2. push the computed alloc (SYNC-1);
//  3. wait for Run to return (postrun included), or close WaitCh if Run
//     never started, so a later Run does nothing;
//  4. run the destroy hooks (alloc_dir removes the alloc dir);
//  5. delete the alloc's state DB bucket, atomically with marking the
//     runner destroyed, so no later PersistState resurrects it;
//  6. close DestroyCh and ShutdownCh, and every listener.
func (ar *allocRunner) Destroy() {
	runStarted, afterShutdown, ok := ar.life.requestDestroy()
	if !ok {
		return
	}
	go ar.destroy(runStarted, afterShutdown)
}

func (ar *allocRunner) destroy(runStarted, afterShutdown bool) {
	switch {
	case afterShutdown:
		<-ar.life.shutdownCh
	case runStarted:
		ar.killTasks("alloc destroyed")
	default:
		if ar.life.decideLaunch(false) {
			for _, name := range ar.taskNames {
				ar.tasks[name].Start()
			}
			ar.life.launched() // as Run's launch (launchTasks)
			ar.killTasks("alloc destroyed before it ran")
			for _, name := range ar.taskNames {
				<-ar.tasks[name].WaitCh()
			}
		}
	}
	ar.push(ar.Alloc())
	if runStarted {
		<-ar.life.waitCh
	} else {
		ar.life.closeWait()
	}
	ar.runDestroyHooks()
	ar.life.markDestroyed(func() {
		if err := ar.stateDB.DeleteAllocationBucket(ar.id); err != nil {
			ar.logger.Error("failed to delete alloc state", "error", err)
		}
	})
	ar.life.closeDestroy()
	ar.life.closeShutdown()
	ar.broadcaster.close()
}

// Shutdown implements interfaces.AllocRunner (AR-1): the runner stops and
// the tasks keep running. It returns at once; ShutdownCh closes when it is
// done:
//
//  1. cancel a prerun in progress and any kill wait;
//  2. once Run decided whether to launch the task runners, shut every
//     task runner down, concurrently (one never launched just stops its
//     pause timer), and wait for Run to return (no postrun, no prekill);
//     close WaitCh if Run never started;
//  3. run the shutdown hooks, persist the alloc (STATE-2), close
//     ShutdownCh and every listener.
//
// A Shutdown after Destroy is ignored.
func (ar *allocRunner) Shutdown() {
	runStarted, ok := ar.life.requestShutdown()
	if !ok {
		return
	}
	ar.shutdownCancel()
	ar.hookCancel()
	go ar.shutdown(runStarted)
}

func (ar *allocRunner) shutdown(runStarted bool) {
	if runStarted {
		ar.life.waitLaunch()
	}
	var wg sync.WaitGroup
	for _, name := range ar.taskNames {
		wg.Go(ar.tasks[name].Shutdown)
	}
	wg.Wait()
	if runStarted {
		<-ar.life.waitCh
	} else {
		ar.life.closeWait()
	}
	ar.runShutdownHooks()
	if err := ar.PersistState(); err != nil {
		ar.logger.Error("failed to persist alloc on shutdown", "error", err)
	}
	ar.life.closeShutdown()
	ar.broadcaster.close()
}
