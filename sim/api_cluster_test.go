package sim_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

// TestAPIClusterLifecycle drives the endpoints the real `nomad` CLI uses
// beyond SPEC §5 (issue 14) against the reference runner in a World,
// routed locally and forwarded (API-7):
//
//	restart (one task, then every running one): a `Restart Signaled`
//	event each time (AR-1), no restart attempt used, running again;
//	alloc stop: desired stop under an alloc-stop evaluation, the alloc
//	killed and complete;
//	job stop: a job-deregister evaluation, the job dead and stopped, its
//	alloc complete (and a second job-deregister evaluation, SYNC-4's);
//	every alloc read has what `alloc status` prints.
//
// Run twice, the API transcripts are byte-identical (DET-4: eval IDs from
// the seeded stream, times from the virtual clock).
func TestAPIClusterLifecycle(t *testing.T) {
	for _, route := range routings {
		t.Run(string(route), func(t *testing.T) {
			var transcripts [2][]string
			for i := range transcripts {
				synctest.Test(t, func(t *testing.T) { transcripts[i] = clusterLifecycle(t, route) })
			}
			must.SliceNotEmpty(t, transcripts[0])
			must.Eq(t, transcripts[0], transcripts[1])
		})
	}
}

func clusterLifecycle(t *testing.T, route routing) []string {
	r := newAPIRig(t, apiScenario("api_cluster", 31, time.Hour), route)
	task := func(name string) *api.Task {
		return mockTask(name, map[string]any{"run_for": "1h", "kill_after": "500ms"})
	}
	reg := r.register(oneGroupJob(api.NewServiceJob, "web", task("t")))
	r.register(oneGroupJob(api.NewServiceJob, "db", task("d")))
	web := r.onlyAlloc("web")
	a := r.until(web.ID, time.Minute, "running", isStatus(structs.AllocClientStatusRunning))
	must.EqOp(t, reg.EvalID, a.EvalID)
	must.NotNil(t, a.Job.Version)
	must.NotEq(t, "", a.NodeName)
	must.EqOp(t, 0, a.TaskStates["t"].Restarts)

	restarted := r.w.Now()
	r.mustDo("Restart", func() error { return r.c.Allocations().Restart(&api.Allocation{ID: web.ID}, "t", nil) })
	a = r.until(web.ID, time.Minute, "restarted", func(a *structs.Allocation) bool {
		s := a.TaskStates["t"]
		return s != nil && s.State == structs.TaskStateRunning && len(eventTimes(r.info(web.ID), "t", structs.TaskStarted)) >= 2
	})
	must.SliceContains(t, eventsAfter(a, "t", restarted.Add(-time.Nanosecond)), "t "+at(restarted.UnixNano())+" Restart Signaled Task signaled to restart")
	r.mustDo("RestartRunning", func() error { return r.c.Allocations().Restart(&api.Allocation{ID: web.ID}, "", nil) })
	err := r.do(func() error { return r.c.Allocations().Restart(&api.Allocation{ID: web.ID}, "ghost", nil) })
	must.ErrorContains(t, err, "Could not find task runner for task: ghost")

	var stop *api.AllocStopResponse
	r.mustDo("Stop", func() (err error) {
		stop, err = r.c.Allocations().Stop(&api.Allocation{ID: web.ID}, nil)
		return err
	})
	a = r.until(web.ID, time.Minute, "stopped", isStatus(structs.AllocClientStatusComplete))
	must.EqOp(t, "stop", a.DesiredStatus)
	var ev *api.Evaluation
	r.mustDo("Evaluations().Info", func() (err error) {
		ev, _, err = r.c.Evaluations().Info(stop.EvalID, nil)
		return err
	})
	must.EqOp(t, "alloc-stop", ev.TriggeredBy)
	var job *api.Job
	r.mustDo("Jobs().Info", func() (err error) {
		job, _, err = r.c.Jobs().Info("web", nil)
		return err
	})
	must.EqOp(t, "dead", *job.Status, must.Sprint("its only alloc is terminal"))
	must.False(t, *job.Stop)

	db := r.onlyAlloc("db")
	r.until(db.ID, time.Minute, "db running", isStatus(structs.AllocClientStatusRunning))
	var evalID string
	r.mustDo("Deregister", func() (err error) {
		evalID, _, err = r.c.Jobs().Deregister("db", false, nil)
		return err
	})
	a = r.until(db.ID, time.Minute, "db stopped", isStatus(structs.AllocClientStatusComplete))
	must.EqOp(t, "stop", a.DesiredStatus)
	r.mustDo("Jobs().Info", func() (err error) {
		job, _, err = r.c.Jobs().Info("db", nil)
		return err
	})
	must.True(t, *job.Stop)
	must.EqOp(t, "dead", *job.Status)
	var evals []*api.Evaluation
	r.mustDo("Jobs().Evaluations", func() (err error) {
		evals, _, err = r.c.Jobs().Evaluations("db", nil)
		return err
	})
	// Newest first: the SYNC-4 eval of the client's terminal update, then
	// the deregistration's, then the registration's.
	must.SliceLen(t, 3, evals)
	must.EqOp(t, evalID, evals[1].ID)
	for i, trigger := range []string{"job-deregister", "job-deregister", "job-register"} {
		must.EqOp(t, trigger, evals[i].TriggeredBy)
		must.EqOp(t, api.EvalStatusComplete, evals[i].Status)
		must.EqOp(t, "service", evals[i].Type)
	}
	r.close()
	return r.seen.exchanges()
}
