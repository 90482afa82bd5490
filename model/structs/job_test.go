package structs

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/shoenig/test/must"
)

func TestRestartPolicyDefaults(t *testing.T) {
	cases := []struct {
		jobType  string
		attempts int
		interval time.Duration
	}{
		{JobTypeService, 2, 30 * time.Minute},
		{JobTypeSystem, 2, 30 * time.Minute},
		{JobTypeBatch, 3, 24 * time.Hour},
		{JobTypeSysBatch, 3, 24 * time.Hour},
	}
	for _, tc := range cases {
		t.Run(tc.jobType, func(t *testing.T) {
			p := (*RestartPolicy)(nil).WithDefaults(tc.jobType)
			must.EqOp(t, tc.attempts, p.GetAttempts())
			must.EqOp(t, tc.interval, p.GetInterval())
			must.EqOp(t, 15*time.Second, p.GetDelay())
			must.EqOp(t, RestartPolicyModeFail, p.GetMode())
			must.NoError(t, p.Validate())
		})
	}
	// Present fields are kept; absent ones are filled.
	mode := RestartPolicyModeDelay
	p := (&RestartPolicy{Mode: &mode}).WithDefaults(JobTypeBatch)
	must.EqOp(t, RestartPolicyModeDelay, p.GetMode())
	must.EqOp(t, 3, p.GetAttempts())
	var nilp *RestartPolicy
	must.EqOp(t, 0, nilp.GetAttempts())
	must.EqOp(t, time.Duration(0), nilp.GetInterval())
	must.EqOp(t, time.Duration(0), nilp.GetDelay())
	must.EqOp(t, "", nilp.GetMode())
}

// TestRestartPolicyValidate checks DATA-3's messages, all failures reported.
func TestRestartPolicyValidate(t *testing.T) {
	cases := []struct {
		name string
		p    *RestartPolicy
		want []string
	}{
		{"valid", NewRestartPolicy(2, 30*time.Minute, 15*time.Second, "fail"), nil},
		{"zero attempts fail ok", NewRestartPolicy(0, 30*time.Minute, 15*time.Second, "fail"), nil},
		{"bad mode", NewRestartPolicy(1, time.Minute, time.Second, "sometimes"),
			[]string{`Unsupported restart mode: "sometimes"`}},
		{"ambiguous", NewRestartPolicy(0, time.Minute, time.Second, "delay"),
			[]string{`Restart policy "delay" with 0 attempts is ambiguous`}},
		{"short interval", NewRestartPolicy(1, time.Second, 0, "fail"),
			[]string{"Interval can not be less than 5s (got 1s)"}},
		{"too many", NewRestartPolicy(10, 30*time.Minute, 5*time.Minute, "fail"),
			[]string{"Nomad can't restart the TaskGroup 10 times in an interval of 30m0s with a delay of 5m0s"}},
		{"everything", NewRestartPolicy(0, time.Second, time.Second, "x"), []string{
			`Unsupported restart mode: "x"`,
			`Restart policy "x" with 0 attempts is ambiguous`,
			"Interval can not be less than 5s (got 1s)",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Validate()
			if tc.want == nil {
				must.NoError(t, err)
				return
			}
			var joined interface{ Unwrap() []error }
			must.True(t, errors.As(err, &joined))
			var got []string
			for _, e := range joined.Unwrap() {
				got = append(got, e.Error())
			}
			must.Eq(t, tc.want, got)
		})
	}
}

func TestCanonicalizeAndLookups(t *testing.T) {
	j := &Job{ID: "j", TaskGroups: []*TaskGroup{nil, {Name: "g", Tasks: []*Task{nil,
		{Name: "main", KillTimeout: time.Minute},
		{Name: "pre", Lifecycle: &TaskLifecycle{Hook: TaskLifecycleHookPrestart, Sidecar: true}, KillSignal: "SIGTERM"},
		{Name: "post", Lifecycle: &TaskLifecycle{Hook: TaskLifecycleHookPoststop}},
		{Name: "ps", Lifecycle: &TaskLifecycle{Hook: TaskLifecycleHookPoststart}},
	}}}}
	j.Canonicalize()
	(*Job)(nil).Canonicalize()
	must.EqOp(t, DefaultNamespace, j.Namespace)
	must.EqOp(t, JobTypeService, j.Type)
	tg := j.LookupTaskGroup("g")
	must.NotNil(t, tg)
	must.Nil(t, j.LookupTaskGroup("nope"))
	must.Nil(t, (*Job)(nil).LookupTaskGroup("g"))
	must.EqOp(t, 2, tg.RestartPolicy.GetAttempts())
	main, pre, post, ps := tg.LookupTask("main"), tg.LookupTask("pre"), tg.LookupTask("post"), tg.LookupTask("ps")
	must.Nil(t, tg.LookupTask("nope"))
	must.Nil(t, (*TaskGroup)(nil).LookupTask("x"))
	must.True(t, main.IsMain() && !main.IsSidecar() && !main.IsScheduled())
	must.True(t, pre.IsPrestart() && pre.IsSidecar() && !pre.IsMain())
	must.True(t, post.IsPoststop() && ps.IsPoststart())
	must.EqOp(t, "SIGINT", main.KillSignal)
	must.EqOp(t, "SIGTERM", pre.EffectiveKillSignal())
	must.EqOp(t, DefaultKillTimeout, pre.KillTimeout)
	must.EqOp(t, 30*time.Second, main.EffectiveKillTimeout(0), must.Sprint("capped by the 30s default"))
	must.EqOp(t, 10*time.Second, main.EffectiveKillTimeout(10*time.Second))
	must.EqOp(t, 5*time.Second, (&Task{}).EffectiveKillTimeout(0))
	must.EqOp(t, "SIGINT", (&Task{}).EffectiveKillSignal())
}

func TestJobCopyIsDeep(t *testing.T) {
	j := &Job{ID: "j", TaskGroups: []*TaskGroup{{
		Name:          "g",
		RestartPolicy: DefaultRestartPolicy(JobTypeService),
		Volumes:       map[string]*VolumeRequest{"v": {Name: "v", Type: VolumeTypeCSI, Source: "s"}},
		Tasks: []*Task{{
			Name:         "t",
			Config:       map[string]any{"run_for": "10s", "nested": map[string]any{"a": []any{1.0}}, "sigs": []string{"SIGINT"}},
			Lifecycle:    &TaskLifecycle{Hook: "prestart"},
			Schedule:     &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 17"}},
			VolumeMounts: []*VolumeMount{{Volume: "v", Destination: "/d"}},
		}},
	}}}
	before, err := json.Marshal(j)
	must.NoError(t, err)
	c := j.Copy()
	tg := c.TaskGroups[0]
	*tg.RestartPolicy.Attempts = 99
	tg.Volumes["v"].Source = "x"
	task := tg.Tasks[0]
	task.Config["run_for"] = "1s"
	task.Config["nested"].(map[string]any)["a"].([]any)[0] = 2.0
	task.Config["sigs"].([]string)[0] = "SIGHUP"
	task.Lifecycle.Hook = "poststop"
	task.Schedule.Cron.Start = "x"
	task.VolumeMounts[0].Destination = "/x"
	after, err := json.Marshal(j)
	must.NoError(t, err)
	must.EqOp(t, string(before), string(after))
	must.Nil(t, (*Job)(nil).Copy())
	must.Nil(t, (*TaskGroup)(nil).Copy())
	must.Nil(t, (*Task)(nil).Copy())
}
