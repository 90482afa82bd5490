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
	task := func(name string, s *schedule.Schedule) *Task {
		return &Task{Name: name, Driver: "mock_driver", Schedule: s}
	}
	ok := DefaultRestartPolicy(JobTypeService)
	bad := NewRestartPolicy(0, time.Second, 0, "x")
	cases := []struct {
		name    string
		job     *Job
		profile schedule.Profile
		want    []string
	}{
		{"admitted", job(group("g", 1, ok, task("t", good))), schedule.ProfileEnt, nil},
		{"unscheduled under ce", job(group("g", 1, ok, task("t", nil))), schedule.ProfileCE, nil},
		{"ce once per job", job(
			group("a", 1, ok, task("t1", good), task("t2", good)),
			group("b", 1, ok, task("t3", &schedule.Schedule{}))),
			schedule.ProfileCE, []string{"task schedules requires Nomad Enterprise"}},
		{"ent first error per task", job(group("g", 1, ok,
			task("t1", &schedule.Schedule{}),
			task("t2", sched("0 9 * *", "0")),
			task("t3", good))),
			schedule.ProfileEnt, []string{"must specify cron block", "cron.start must contain 6 fields"}},
		{"count and restart policy flattened", job(group("g", -1, bad, task("t", nil)), nil, group("h", 1, ok, nil, task("t", nil))),
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

// TestJobValidateShape: the structural rules of issue 14, each alone on an
// otherwise admitted job, with Nomad's message; then several at once, in
// Validate's order.
func TestJobValidateShape(t *testing.T) {
	valid := func() *Job {
		j := &Job{ID: "web", Name: "web", Type: JobTypeService, TaskGroups: []*TaskGroup{
			{Name: "g", Count: 1, Tasks: []*Task{{Name: "t", Driver: "raw_exec"}}},
		}}
		j.Canonicalize()
		return j
	}
	must.NoError(t, valid().Validate(schedule.ProfileEnt))
	cases := []struct {
		name   string
		change func(j *Job)
		want   []string
	}{
		{"job ID with a space", func(j *Job) { j.ID = "my web" }, []string{MsgJobIDSpace}},
		{"job ID with a null character", func(j *Job) { j.ID = "web\x00" }, []string{MsgJobIDNull}},
		{"job ID with a slash (a dispatched child)", func(j *Job) { j.ID = "web/dispatch-1-abcd0123" }, nil},
		{"unknown job type", func(j *Job) { j.Type = "cron" }, []string{`Invalid job type: "cron"`}},
		{"empty job type is the default", func(j *Job) { j.Type = "" }, nil},
		{"sysbatch", func(j *Job) { j.Type = JobTypeSysBatch }, nil},
		{"no task groups", func(j *Job) { j.TaskGroups = nil }, []string{MsgJobNoGroups}},
		{"only nil task groups", func(j *Job) { j.TaskGroups = []*TaskGroup{nil} }, []string{MsgJobNoGroups}},
		{"group without a name", func(j *Job) { j.TaskGroups[0].Name = "" }, []string{"Job task group 1 missing name"}},
		{"duplicate group names", func(j *Job) {
			j.TaskGroups = append(j.TaskGroups, nil, j.TaskGroups[0].Copy(), j.TaskGroups[0].Copy())
		}, []string{"Job task group 2 redefines 'g' from group 1", "Job task group 3 redefines 'g' from group 1"}},
		{"system group counting 2", func(j *Job) { j.Type, j.TaskGroups[0].Count = JobTypeSystem, 2 },
			[]string{"Job task group g has count 2. Count cannot exceed 1 with system scheduler"}},
		{"system group counting 1", func(j *Job) { j.Type = JobTypeSystem }, nil},
		{"service group counting 0", func(j *Job) { j.TaskGroups[0].Count = 0 }, nil},
		{"group without tasks", func(j *Job) { j.TaskGroups[0].Tasks = nil }, []string{MsgGroupNoTasks}},
		{"group with only a nil task", func(j *Job) { j.TaskGroups[0].Tasks = []*Task{nil} }, []string{MsgGroupNoTasks}},
		{"task without a name", func(j *Job) { j.TaskGroups[0].Tasks[0].Name = "" }, []string{"Task 1 missing name"}},
		{"duplicate task names", func(j *Job) {
			tg := j.TaskGroups[0]
			tg.Tasks = append(tg.Tasks, &Task{Name: "u", Driver: "raw_exec"}, &Task{Name: "t", Driver: "raw_exec"})
		}, []string{"Task 3 redefines 't' from task 1"}},
		{"same task name in two groups", func(j *Job) {
			g2 := j.TaskGroups[0].Copy()
			g2.Name = "g2"
			j.TaskGroups = append(j.TaskGroups, g2)
		}, nil},
		{"task name with a slash", func(j *Job) { j.TaskGroups[0].Tasks[0].Name = "../t" }, []string{MsgTaskNameSlash}},
		{"task without a driver", func(j *Job) { j.TaskGroups[0].Tasks[0].Driver = "" }, []string{MsgTaskNoDriver}},
		{"all at once, in order", func(j *Job) {
			j.ID, j.Type = "a b", "cron"
			j.TaskGroups = append(j.TaskGroups,
				&TaskGroup{Name: "g", Count: -1, RestartPolicy: DefaultRestartPolicy(JobTypeService),
					Tasks: []*Task{{Name: "x"}, {Name: "x", Driver: "d"}}},
				&TaskGroup{Name: "", RestartPolicy: DefaultRestartPolicy(JobTypeService)})
		}, []string{
			MsgJobIDSpace,
			`Invalid job type: "cron"`,
			"Job task group 2 redefines 'g' from group 1",
			"Job task group 3 missing name",
			`task group "g" has a negative count`,
			MsgTaskNoDriver,
			"Task 2 redefines 'x' from task 1",
			MsgGroupNoTasks,
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := valid()
			tc.change(j)
			must.Eq(t, tc.want, messages(j.Validate(schedule.ProfileEnt)))
		})
	}
}
