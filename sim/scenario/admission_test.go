package scenario

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/server"
	"pgregory.net/rapid"
)

// admissionOptions are the Options variants the admission test draws
// under: the default, and each field the generator takes set.
var admissionOptions = []struct {
	name string
	opts Options
}{
	{"default", Options{}},
	{"no faults", Options{NoFaults: true}},
	{"many jobs and calls", Options{MaxJobs: 5, MaxCalls: 20}},
	{"long, one job, no calls", Options{
		MinDuration: time.Hour, MaxDuration: 2 * time.Hour, MaxJobs: 1, MaxCalls: -1, NoFaults: true,
	}},
	{"short", Options{MinDuration: time.Minute, MaxDuration: time.Minute}},
	{"exclude", Options{Exclude: []faults.Class{faults.RPCFailure, faults.ClientCrash}}},
}

// TestGeneratedJobsAreAdmitted: every job a generated scenario registers,
// and every re-registration its update_schedule calls make, passes the
// simulated server's admission (server.ValidateJob, structs.Job.Validate)
// under the scenario's profile. The one expected rejection is the one a
// scenario asks for with Profile "ce": a job with a task schedule is
// refused with exactly schedule.ErrEnterpriseOnly (SCHED-1), and it is
// otherwise admitted (under ent).
func TestGeneratedJobsAreAdmitted(t *testing.T) {
	for _, v := range admissionOptions {
		t.Run(v.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 500; seed++ {
				checkAdmission(t, Generate(seed, v.opts))
			}
		})
	}
	t.Run("drawn", func(t *testing.T) {
		rapid.Check(t, func(rt *rapid.T) {
			checkAdmission(rt, Draw(rt))
		})
	})
}

// checkAdmission checks every job and job update of s (see
// TestGeneratedJobsAreAdmitted).
func checkAdmission(t interface {
	Helper()
	Fatalf(string, ...any)
}, s Scenario) {
	t.Helper()
	profile := schedule.Profile(s.Profile)
	if profile == "" {
		profile = schedule.ProfileEnt // as the world and the server default it
	}
	// current is each job as the server holds it: the last admitted
	// registration, updates applied in call order (as the world does).
	current := map[string]*structs.Job{}
	admit := func(what string, job *structs.Job) bool {
		job = job.Copy()
		job.Canonicalize() // as the server does before admission
		err := server.ValidateJob(job, profile)
		if profile == schedule.ProfileCE && scheduled(job) {
			ls := leafErrors(err)
			if len(ls) != 1 || !errors.Is(ls[0], schedule.ErrEnterpriseOnly) {
				t.Fatalf("%s: %s under ce: want only %q, got %v", s.Name, what, schedule.ErrEnterpriseOnly, err)
			}
			if err := server.ValidateJob(job, schedule.ProfileEnt); err != nil {
				t.Fatalf("%s: %s not admitted under ent: %v", s.Name, what, err)
			}
			return false
		}
		if err != nil {
			t.Fatalf("%s: %s not admitted under %s: %v\n%s", s.Name, what, profile, err, s)
		}
		return true
	}
	for i, ja := range s.Jobs {
		if admit(fmt.Sprintf("job %d (%s)", i, ja.Job.ID), ja.Job) {
			current[ja.Job.ID] = ja.Job.Copy()
		}
	}
	for i, c := range s.Calls {
		if c.Op != OpUpdateSchedule {
			continue
		}
		base := current[c.Job]
		if base == nil {
			base = s.Job(c.Job) // rejected under ce: still check the update's shape
		}
		job := base.Copy()
		found := false
		for _, tg := range job.TaskGroups {
			if tk := tg.LookupTask(c.Task); tk != nil {
				tk.Schedule = c.Schedule
				found = true
			}
		}
		if !found {
			t.Fatalf("%s: call %d: job %s has no task %s", s.Name, i, c.Job, c.Task)
		}
		if admit(fmt.Sprintf("call %d (update_schedule %s/%s)", i, c.Job, c.Task), job) && current[c.Job] != nil {
			current[c.Job] = job
		}
	}
}

// scheduled reports whether any task of job has a schedule.
func scheduled(job *structs.Job) bool {
	for _, tg := range job.TaskGroups {
		if tg == nil {
			continue
		}
		for _, tk := range tg.Tasks {
			if tk != nil && tk.IsScheduled() {
				return true
			}
		}
	}
	return false
}

// leafErrors flattens joined errors into the single errors they hold.
func leafErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, leafErrors(e)...)
		}
		return out
	}
	return []error{err}
}
