package scenario

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

// TestGenerateIsAFunctionOfTheSeed: a seed names one scenario.
func TestGenerateIsAFunctionOfTheSeed(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		a, b := Generate(seed, Options{}), Generate(seed, Options{})
		must.Eq(t, a.String(), b.String())
		must.EqOp(t, seed, a.Seed)
		must.NoError(t, a.Validate(), must.Sprint(a.String()))
	}
	must.NotEq(t, Generate(1, Options{}).String(), Generate(2, Options{}).String())
}

// TestDrawProperties: drawn scenarios are valid, within their options,
// and survive a JSON round trip unchanged.
func TestDrawProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s := Draw(rt)
		if err := s.Validate(); err != nil {
			rt.Fatalf("invalid drawn scenario: %v\n%s", err, s)
		}
		must.Between(rt, 2*time.Minute, s.Duration.D(), 15*time.Minute)
		for i := 1; i < len(s.Calls); i++ {
			must.LessEq(rt, s.Calls[i].At, s.Calls[i-1].At)
		}
		var buf bytes.Buffer
		must.NoError(rt, s.Encode(&buf))
		back, err := Decode(&buf)
		must.NoError(rt, err)
		if diff := cmp.Diff(s.String(), back.String()); diff != "" {
			rt.Fatalf("JSON round trip changed the scenario (-want +got):\n%s", diff)
		}
	})
}

func TestOptions(t *testing.T) {
	s := Generate(5, Options{MinDuration: time.Hour, MaxDuration: time.Hour, MaxJobs: 1, MaxCalls: -1, NoFaults: true})
	must.EqOp(t, time.Hour, s.Duration.D())
	must.SliceLen(t, 1, s.Jobs)
	must.SliceEmpty(t, s.Calls)
	must.SliceEmpty(t, s.Faults)
	for seed := uint64(0); seed < 50; seed++ {
		s := Generate(seed, Options{Exclude: []faults.Class{faults.RPCFailure, faults.ClientCrash}})
		must.False(t, s.Faults.Has(faults.RPCFailure))
		must.False(t, s.Faults.Has(faults.ClientCrash))
		must.False(t, s.Faults.Has(faults.DriverRecoverFailure), must.Sprint("recover failures need a crash"))
	}
}

func validScenario() Scenario {
	job := &structs.Job{ID: "web", TaskGroups: []*structs.TaskGroup{{
		Name: "g", Count: 2,
		Volumes: map[string]*structs.VolumeRequest{"data": {Name: "data", Type: structs.VolumeTypeCSI, Source: "v"}},
		Tasks: []*structs.Task{
			{Name: "a", Driver: "mock_driver", VolumeMounts: []*structs.VolumeMount{{Volume: "data", Destination: "/d"}},
				Schedule: &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 17"}}},
			{Name: "b", Driver: "mock_driver", Lifecycle: &structs.TaskLifecycle{Hook: "poststart", Sidecar: true}, Leader: true},
		},
	}}}
	job.Canonicalize()
	return Scenario{
		Name: "v", Seed: 1, Start: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), Duration: Duration(time.Minute),
		Jobs:   []JobAt{{Job: job}},
		Calls:  []Call{{At: Duration(time.Second), Op: OpPause, Alloc: "web.g[0]", Task: "a"}},
		Faults: faults.Plan{{Class: faults.ClientCrash, At: 30 * time.Second, For: time.Second}, {Class: faults.CSIMountFailure, Rate: 0.5}},
	}
}

func TestShape(t *testing.T) {
	s := validScenario()
	must.Eq(t, faults.Shape{Tasks: 4, CSIVolumes: 2, Crashes: 1, Duration: time.Minute}, s.Shape())
	must.NotNil(t, s.Job("web"))
	must.Nil(t, s.Job("nope"))
	must.Eq(t, s.Start.Add(time.Minute), s.End())
}

// TestValidate lists what makes a scenario unrunnable.
func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		mut  func(*Scenario)
		want string
	}{
		{"no duration", func(s *Scenario) { s.Duration = 0 }, "duration must be positive"},
		{"no start", func(s *Scenario) { s.Start = time.Time{} }, "no start instant"},
		{"bad profile", func(s *Scenario) { s.Profile = "pro" }, `unknown profile "pro"`},
		{"bad zone", func(s *Scenario) { s.LocalZone = "Mars/Olympus" }, "local zone"},
		{"job without ID", func(s *Scenario) { s.Jobs = append(s.Jobs, JobAt{Job: &structs.Job{}}) }, "job 1 has no ID or no groups"},
		{"unknown op", func(s *Scenario) { s.Calls[0].Op = "dance" }, `unknown op "dance"`},
		{"no alloc", func(s *Scenario) { s.Calls[0].Alloc = "" }, "no alloc name"},
		{"signal without signal", func(s *Scenario) { s.Calls[0].Op = OpSignal }, "no signal"},
		{"unknown job", func(s *Scenario) { s.Calls[0] = Call{Op: OpStopJob, Job: "nope"} }, `unknown job "nope"`},
		{"update without task", func(s *Scenario) { s.Calls[0] = Call{Op: OpUpdateSchedule, Job: "web"} }, "no task"},
		{"fault does not apply", func(s *Scenario) { s.Jobs[0].Job.TaskGroups[0].Tasks[0].VolumeMounts = nil }, "csi_mount_failure does not apply"},
	}
	must.NoError(t, validScenario().Validate())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := validScenario()
			c.mut(&s)
			must.ErrorContains(t, s.Validate(), c.want)
		})
	}
}

func TestString(t *testing.T) {
	s := validScenario()
	s.Calls = append(s.Calls,
		Call{At: Duration(2 * time.Second), Op: OpSignal, Alloc: "web.g[1]", Signal: "SIGHUP"},
		Call{At: Duration(3 * time.Second), Op: OpUpdateSchedule, Job: "web", Task: "a"},
	)
	s.LocalZone, s.Profile = "UTC", "ent"
	got := s.String()
	for _, want := range []string{
		`scenario "v" seed=1`,
		"start 2024-01-01T00:00:00Z duration 1m0s local_zone=UTC profile=ent",
		"job web at +0s type=service namespace=default",
		"group g count=2 restart=2/30m0s/15s/fail volume=data:csi:v",
		`task a driver=mock_driver kill_timeout=5s kill_signal=SIGINT config=map[]`,
		`schedule start="0 9 * * * *" end="0 17" tz=""`,
		"mount data at /d read_only=false",
		"task b driver=mock_driver lifecycle=poststart+sidecar leader",
		"call +1s pause web.g[0] task=a",
		"call +2s signal web.g[1] signal=SIGHUP",
		"call +3s update_schedule job=web task=a schedule=none",
		"faults\n  client_crash at=30s for=1s\n  csi_mount_failure rate=0.5\n",
	} {
		must.StrContains(t, got, want)
	}
	must.StrContains(t, Scenario{Jobs: []JobAt{{}}}.String(), "job <nil>")
	must.Eq(t, "{no cron}", scheduleString(&schedule.Schedule{}))
	must.Eq(t, "default", restartString(nil))
}

func TestOps(t *testing.T) {
	must.Eq(t, structs.TaskScheduleStateForcePause, OpPause.ScheduleState())
	must.Eq(t, structs.TaskScheduleStateForceRun, OpRun.ScheduleState())
	must.Eq(t, structs.TaskScheduleStateScheduleResume, OpResume.ScheduleState())
	must.Eq(t, structs.TaskScheduleState(""), OpSignal.ScheduleState())
	must.Eq(t, structs.TaskScheduleState(""), OpRestart.ScheduleState())
	must.SliceLen(t, 10, Ops())
	must.SliceNotContains(t, swarmOps(), OpRestart, must.Sprint("the generator draws no restarts"))
	must.SliceNotContains(t, swarmOps(), OpGCAlloc, must.Sprint("the generator draws no alloc GC"))
	must.NoError(t, Scenario{Name: "r", Start: time.Unix(0, 0), Duration: Duration(time.Minute),
		Calls: []Call{{Op: OpRestart, Alloc: "web.g[0]"}}}.Validate())
}

func TestDuration(t *testing.T) {
	var d Duration
	must.NoError(t, json.Unmarshal([]byte(`"1m30s"`), &d))
	must.EqOp(t, 90*time.Second, d.D())
	must.NoError(t, json.Unmarshal([]byte(`1500000000`), &d))
	must.EqOp(t, 1500*time.Millisecond, d.D())
	must.Error(t, json.Unmarshal([]byte(`"soon"`), &d))
	must.Error(t, json.Unmarshal([]byte(`true`), &d))
	b, err := json.Marshal(Duration(time.Minute))
	must.NoError(t, err)
	must.Eq(t, `"1m0s"`, string(b))
}

// TestFixtures: every scenario under fixtures/scenarios loads, validates
// and prints.
func TestFixtures(t *testing.T) {
	paths, err := filepath.Glob("../../fixtures/scenarios/*.json")
	must.NoError(t, err)
	must.SliceNotEmpty(t, paths)
	for _, p := range paths {
		s, err := Load(p)
		must.NoError(t, err, must.Sprint(p))
		must.StrContains(t, s.String(), `scenario "`+strings.TrimSuffix(filepath.Base(p), ".json")+`"`)
	}
	_, err = Load("../../fixtures/scenarios/missing.json")
	must.Error(t, err)
	_, err = Decode(strings.NewReader(`{"Name":"x"}`))
	must.ErrorContains(t, err, "duration must be positive")
	_, err = Decode(strings.NewReader(`{`))
	must.ErrorContains(t, err, "decode scenario")
}
