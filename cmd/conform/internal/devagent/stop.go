package devagent

import (
	"fmt"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// stopAllocs ends every alloc before the client shuts down, since the
// dev server's jobs die with the process: it stops every job that still
// has allocs to run (desired stop, delivered by the client's next pull),
// then waits until each of the node's runners has finished (WaitCh),
// bounded by StopTimeout on the agent's clock. Runners still running
// then are named in the error; the client's Shutdown leaves their tasks
// running.
func (a *Agent) stopAllocs() error {
	var jobs []string
	for _, al := range a.srv.Allocs() {
		if al.DesiredStatus == structs.AllocDesiredStatusRun && !slices.Contains(jobs, al.JobID) {
			jobs = append(jobs, al.JobID)
		}
	}
	slices.Sort(jobs)
	for _, id := range jobs {
		if err := a.srv.StopJob(id); err != nil {
			a.cfg.Logger.Error("stopping a job failed", "job", id, "error", err)
		}
	}
	timeout := a.cfg.Clock.Timer(a.cfg.StopTimeout)
	defer timeout.Stop()
	var left []string
	for _, id := range a.srv.NodeAllocIDs(a.nodeID) {
		ar, ok := a.client.AllocRunner(id)
		if !ok {
			continue
		}
		if len(left) > 0 { // timed out already: only collect the others
			if !closed(ar.WaitCh()) {
				left = append(left, id)
			}
			continue
		}
		select {
		case <-ar.WaitCh():
		case <-timeout.C:
			left = append(left, id)
		}
	}
	if len(left) > 0 {
		return fmt.Errorf("allocs still running after %v: %s", a.cfg.StopTimeout, strings.Join(left, ", "))
	}
	return nil
}

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// shutdownClient shuts the client down and then waits, bounded by
// StopTimeout, until each of its runners has finished shutting down
// (ShutdownCh): an alloc runner's Shutdown returns at once and persists
// its state afterwards, which must happen before the state DB closes.
func (a *Agent) shutdownClient() error {
	var runners []interfaces.AllocRunner
	var ids []string
	for _, id := range a.srv.NodeAllocIDs(a.nodeID) {
		if ar, ok := a.client.AllocRunner(id); ok {
			runners = append(runners, ar)
			ids = append(ids, id)
		}
	}
	a.client.Shutdown()
	timeout := a.cfg.Clock.Timer(a.cfg.StopTimeout)
	defer timeout.Stop()
	var left []string
	for i, ar := range runners {
		select {
		case <-ar.ShutdownCh():
		case <-timeout.C:
			left = append(left, ids[i])
		}
	}
	if len(left) > 0 {
		return fmt.Errorf("alloc runners still shutting down after %v: %s", a.cfg.StopTimeout, strings.Join(left, ", "))
	}
	return nil
}
