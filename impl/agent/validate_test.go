package agent_test

import (
	"errors"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/agent"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

func cron(start, end string) *schedule.Schedule {
	return &schedule.Schedule{Cron: &schedule.Cron{Start: start, End: end}}
}

// messages splits a joined error into its messages.
func messages(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		out = append(out, e.Error())
	}
	return out
}

// TestValidateJob is the admission table of SCHED-1 and DATA-3.
func TestValidateJob(t *testing.T) {
	valid := structs.NewRestartPolicy(2, 30*time.Minute, 15*time.Second, "fail")
	// Groups and tasks get distinct names and a driver, so that only the
	// rules under test fail.
	group := func(name string, p *structs.RestartPolicy, tasks ...*structs.Task) *structs.TaskGroup {
		return &structs.TaskGroup{Name: name, RestartPolicy: p, Tasks: tasks}
	}
	task := func(name string, s *schedule.Schedule) *structs.Task {
		return &structs.Task{Name: name, Driver: "mock_driver", Schedule: s}
	}
	good := cron("0 9 * * * *", "0 17")
	cases := []struct {
		name    string
		job     *structs.Job
		profile schedule.Profile
		want    []string
	}{
		{"no schedules, ce", &structs.Job{TaskGroups: []*structs.TaskGroup{group("g", valid, task("t", nil))}}, schedule.ProfileCE, nil},
		{"valid schedule, ent", &structs.Job{TaskGroups: []*structs.TaskGroup{group("g", valid, task("t", good))}}, schedule.ProfileEnt, nil},
		{"ce once per job", &structs.Job{TaskGroups: []*structs.TaskGroup{
			group("g1", valid, task("t1", good), task("t2", &schedule.Schedule{})), group("g2", valid, task("t3", good)),
		}}, schedule.ProfileCE, []string{"task schedules requires Nomad Enterprise"}},
		{"ent first error per task", &structs.Job{TaskGroups: []*structs.TaskGroup{
			group("g1", valid, task("t1", &schedule.Schedule{}), task("t2", cron("a", "b")), task("t3", good)),
			group("g2", valid, task("t4", cron("0 9 * * * *", "0,5 1"))),
		}}, schedule.ProfileEnt, []string{"must specify cron block", "cron.start must contain 6 fields", `cron.end must not contain "/,"`}},
		{"restart failures then schedules, in group order", &structs.Job{TaskGroups: []*structs.TaskGroup{
			nil,
			group("g1", structs.NewRestartPolicy(0, time.Second, 0, "delay"), nil, task("t1", cron("0 9 * * * *", "0 17 *"))),
			group("g2", structs.NewRestartPolicy(1, time.Minute, time.Second, "fail"), task("t2", &schedule.Schedule{})),
		}}, schedule.ProfileCE, []string{
			`Restart policy "delay" with 0 attempts is ambiguous`,
			"Interval can not be less than 5s (got 1s)",
			"task schedules requires Nomad Enterprise",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.Eq(t, tc.want, messages(agent.ValidateJob(tc.job, tc.profile)))
		})
	}
	must.EqError(t, agent.ValidateJob(nil, schedule.ProfileEnt), "Job must be specified")
	must.True(t, errors.Is(agent.ValidateJob(&structs.Job{TaskGroups: []*structs.TaskGroup{group("g", valid, task("t", good))}},
		schedule.ProfileCE), schedule.ErrEnterpriseOnly))
}

// TestDecodeJobRegister: the decoder canonicalizes and applies the
// namespace parameter to a job without one.
func TestDecodeJobRegister(t *testing.T) {
	job, err := agent.DecodeJobRegister(nil, "")
	must.Nil(t, job)
	must.EqError(t, err, "Job must be specified")

	job, err = agent.DecodeJobRegister(stringsReader(`{"Job":{"ID":"b","Type":"batch","TaskGroups":[{"Name":"g","Tasks":[{"Name":"t"}]}]}}`), "ops")
	must.NoError(t, err)
	must.EqOp(t, "ops", job.Namespace)
	must.EqOp(t, 3, job.TaskGroups[0].RestartPolicy.GetAttempts()) // batch defaults (DATA-3)
	must.EqOp(t, 24*time.Hour, job.TaskGroups[0].RestartPolicy.GetInterval())
	must.EqOp(t, 5*time.Second, job.TaskGroups[0].Tasks[0].KillTimeout)
	must.EqOp(t, "SIGINT", job.TaskGroups[0].Tasks[0].KillSignal)
	must.EqOp(t, 1, job.TaskGroups[0].Count)

	job, err = agent.DecodeJobRegister(stringsReader(`{"Job":{"ID":"b"}}`), "")
	must.NoError(t, err)
	must.EqOp(t, "default", job.Namespace)
	must.EqOp(t, "service", job.Type)
}
