package structs

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/shoenig/test/must"
)

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

// TestJobValidate checks admission (API-4, DATA-3, SCHED-1): all failures,
// one message each, in group then task order; ce once per job.
func TestJobValidate(t *testing.T) {
	sched := func(start, end string) *schedule.Schedule {
		return &schedule.Schedule{Cron: &schedule.Cron{Start: start, End: end}}
	}
	good := sched("0 9 * * * *", "0 17")
	job := func(tgs ...*TaskGroup) *Job { return &Job{ID: "j", TaskGroups: tgs} }
	group := func(name string, count int, p *RestartPolicy, tasks ...*Task) *TaskGroup {
		return &TaskGroup{Name: name, Count: count, RestartPolicy: p, Tasks: tasks}
	}
	ok := DefaultRestartPolicy(JobTypeService)
	bad := NewRestartPolicy(0, time.Second, 0, "x")
	cases := []struct {
		name    string
		job     *Job
		profile schedule.Profile
		want    []string
	}{
		{"admitted", job(group("g", 1, ok, &Task{Name: "t", Schedule: good})), schedule.ProfileEnt, nil},
		{"unscheduled under ce", job(group("g", 1, ok, &Task{Name: "t"})), schedule.ProfileCE, nil},
		{"ce once per job", job(
			group("a", 1, ok, &Task{Name: "t1", Schedule: good}, &Task{Name: "t2", Schedule: good}),
			group("b", 1, ok, &Task{Name: "t3", Schedule: &schedule.Schedule{}})),
			schedule.ProfileCE, []string{"task schedules requires Nomad Enterprise"}},
		{"ent first error per task", job(group("g", 1, ok,
			&Task{Name: "t1", Schedule: &schedule.Schedule{}},
			&Task{Name: "t2", Schedule: sched("0 9 * *", "0")},
			&Task{Name: "t3", Schedule: good})),
			schedule.ProfileEnt, []string{"must specify cron block", "cron.start must contain 6 fields"}},
		{"count and restart policy flattened", job(group("g", -1, bad), nil, group("h", 1, ok, nil)),
			schedule.ProfileEnt, []string{
				`task group "g" has a negative count`,
				`Unsupported restart mode: "x"`,
				`Restart policy "x" with 0 attempts is ambiguous`,
				"Interval can not be less than 5s (got 1s)",
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.Eq(t, tc.want, messages(tc.job.Validate(tc.profile)))
		})
	}
}
