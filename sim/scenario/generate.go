package scenario

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/seeds"
	"pgregory.net/rapid"
)

// Options bound generated scenarios. Zero fields take the defaults.
type Options struct {
	// MinDuration and MaxDuration bound the run (default 2m and 15m).
	MinDuration, MaxDuration time.Duration
	// MaxJobs bounds the jobs (default 2); MaxCalls the API calls
	// (default 4).
	MaxJobs, MaxCalls int
	// NoFaults draws an empty fault plan.
	NoFaults bool
	// Exclude drops these classes from the drawn plan (after drawing, so
	// the rest of the scenario is the same as without Exclude).
	Exclude []faults.Class
}

func (o Options) withDefaults() Options {
	if o.MinDuration <= 0 {
		o.MinDuration = 2 * time.Minute
	}
	if o.MaxDuration < o.MinDuration {
		o.MaxDuration = max(15*time.Minute, o.MinDuration)
	}
	if o.MaxJobs <= 0 {
		o.MaxJobs = 2
	}
	if o.MaxCalls < 0 {
		o.MaxCalls = 0
	} else if o.MaxCalls == 0 {
		o.MaxCalls = 4
	}
	return o
}

// Starts are the start instants generated scenarios pick from: DST
// transitions, a month and a year end, an ordinary morning.
var Starts = []time.Time{
	time.Date(2024, 3, 10, 6, 50, 0, 0, time.UTC),  // New York springs forward at 07:00Z
	time.Date(2024, 11, 3, 5, 50, 0, 0, time.UTC),  // New York falls back at 06:00Z
	time.Date(2024, 3, 31, 0, 50, 0, 0, time.UTC),  // Berlin springs forward at 01:00Z
	time.Date(2024, 1, 31, 23, 50, 0, 0, time.UTC), // month end
	time.Date(2024, 12, 31, 23, 55, 0, 0, time.UTC),
	time.Date(2024, 6, 14, 8, 55, 0, 0, time.UTC),
}

// Zones are the schedule time zones generated tasks pick from ("Local" is
// the client's zone, SCHED-4).
var Zones = []string{"UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Local"}

var localZones = []string{"", "America/New_York", "Europe/Berlin"}

// rapidDrawer draws from a rapid.T, so failing scenarios shrink.
type rapidDrawer struct{ t *rapid.T }

func (d rapidDrawer) IntRange(label string, lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return rapid.IntRange(lo, hi).Draw(d.t, label)
}

func (d rapidDrawer) Bool(label string) bool { return rapid.Bool().Draw(d.t, label) }

// Draw draws a scenario with default Options from t (shrinkable).
func Draw(t *rapid.T) Scenario { return DrawWith(rapidDrawer{t}, Options{}) }

// DrawOpts draws a scenario within opts from t (shrinkable).
func DrawOpts(t *rapid.T, opts Options) Scenario { return DrawWith(rapidDrawer{t}, opts) }

// Generate returns the scenario seed names: drawn from the seed's own
// "scenario" stream, with Seed = seed and Name "seed-<seed>".
func Generate(seed uint64, opts Options) Scenario {
	s := DrawWith(seeds.RandDrawer{R: seeds.Stream(seed, "scenario")}, opts)
	s.Seed = seed
	s.Name = fmt.Sprintf("seed-%d", seed)
	return s
}

// DrawWith draws a scenario from d within opts.
func DrawWith(d seeds.Drawer, opts Options) Scenario {
	opts = opts.withDefaults()
	s := Scenario{
		Name:      "drawn",
		Seed:      uint64(d.IntRange("seed", 0, 1<<31-1)),
		Start:     seeds.Pick(d, "start", Starts),
		LocalZone: seeds.Pick(d, "local zone", localZones),
		Profile:   string(schedule.ProfileEnt),
	}
	secs := d.IntRange("duration s", int(opts.MinDuration/time.Second), int(opts.MaxDuration/time.Second))
	s.Duration = Duration(time.Duration(secs) * time.Second)
	if d.IntRange("profile", 0, 9) == 0 {
		s.Profile = string(schedule.ProfileCE)
	}
	features, ops := drawFeatures(d)
	s.Features = append(features, opFeatures(ops)...)
	g := generator{d: d, s: &s, ops: ops}
	for i := 1; i <= d.IntRange("jobs", 1, opts.MaxJobs); i++ {
		at := 0
		if i > 1 {
			at = d.IntRange("job at s", 0, secs/2)
		}
		s.Jobs = append(s.Jobs, JobAt{At: Duration(time.Duration(at) * time.Second), Job: g.job(fmt.Sprintf("job%d", i))})
	}
	for i := 0; len(g.ops) > 0 && i < d.IntRange("calls", 0, opts.MaxCalls); i++ {
		s.Calls = append(s.Calls, g.call(secs))
	}
	slices.SortStableFunc(s.Calls, func(a, b Call) int { return cmp.Compare(a.At, b.At) })
	if !opts.NoFaults {
		for _, f := range faults.Draw(d, s.Shape()) {
			if !slices.Contains(opts.Exclude, f.Class) {
				s.Faults = append(s.Faults, f)
			}
		}
		if !s.Faults.Has(faults.ClientCrash) {
			// driver_recover_failure applies only with a crash.
			s.Faults = slices.DeleteFunc(s.Faults, func(f faults.Fault) bool { return f.Class == faults.DriverRecoverFailure })
		}
	}
	return s
}

type generator struct {
	d   seeds.Drawer
	s   *Scenario
	ops []Op // the call operations on (swarm.go)
}

// opFeatures names the call operations on, as features ("op:<op>").
func opFeatures(ops []Op) []string {
	out := make([]string, len(ops))
	for i, op := range ops {
		out[i] = "op:" + string(op)
	}
	return out
}

func (g generator) job(id string) *structs.Job {
	d := g.d
	j := &structs.Job{ID: id, Name: id, Type: structs.JobTypeService}
	if g.on(FeatureBatch) {
		j.Type = seeds.Pick(d, "job type", []string{structs.JobTypeService, structs.JobTypeBatch})
	}
	groups := 1
	if g.on(FeatureMultiGroup) {
		groups = d.IntRange("groups", 1, 2)
	}
	for i := 1; i <= groups; i++ {
		tg := &structs.TaskGroup{Name: fmt.Sprintf("g%d", i), Count: d.IntRange("count", 1, 2), RestartPolicy: g.restartPolicy()}
		csi := g.on(FeatureCSI) && d.IntRange("csi", 0, 2) < 2
		if csi {
			tg.Volumes = map[string]*structs.VolumeRequest{
				"data": {Name: "data", Type: structs.VolumeTypeCSI, Source: "vol-" + id + "-" + tg.Name},
			}
		}
		for k := 1; k <= d.IntRange("tasks", 1, 3); k++ {
			role := "main"
			if k > 1 && g.on(FeatureLifecycle) {
				role = seeds.Pick(d, "role", []string{"main", "prestart", "sidecar", "poststop"})
			}
			t := g.task(fmt.Sprintf("t%d", k), role)
			if k == 1 && g.on(FeatureLeader) && d.Bool("leader") {
				t.Leader = true
			}
			if csi && d.Bool("mount") {
				t.VolumeMounts = []*structs.VolumeMount{{Volume: "data", Destination: "/data"}}
			}
			tg.Tasks = append(tg.Tasks, t)
		}
		j.TaskGroups = append(j.TaskGroups, tg)
	}
	j.Canonicalize()
	return j
}

func (g generator) restartPolicy() *structs.RestartPolicy {
	d := g.d
	attempts := d.IntRange("attempts", 0, 3)
	interval := time.Duration(d.IntRange("interval min", 5, 30)) * time.Minute
	delay := time.Duration(d.IntRange("delay s", 0, 30)) * time.Second
	mode := structs.RestartPolicyModeFail
	if attempts > 0 && g.on(FeatureDelayMode) && d.Bool("mode delay") {
		mode = structs.RestartPolicyModeDelay
	}
	return structs.NewRestartPolicy(attempts, interval, delay, mode)
}

func (g generator) task(name, role string) *structs.Task {
	d := g.d
	t := &structs.Task{
		Name: name, Driver: "mock_driver",
		KillTimeout: g.killTimeout(),
		KillSignal:  seeds.Pick(d, "kill signal", []string{"SIGINT", "SIGTERM"}),
	}
	cfg := map[string]any{}
	var runFor time.Duration
	switch role {
	case "prestart":
		t.Lifecycle = &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPrestart}
		runFor = time.Duration(d.IntRange("prestart run s", 1, 20)) * time.Second
	case "sidecar":
		t.Lifecycle = &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPoststart, Sidecar: true}
	case "poststop":
		t.Lifecycle = &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPoststop}
		runFor = time.Duration(d.IntRange("poststop run s", 1, 10)) * time.Second
	default:
		if g.on(FeatureExits) && d.Bool("main exits") {
			runFor = time.Duration(d.IntRange("main run s", 10, int(g.s.Duration.D()/time.Second))) * time.Second
		}
		if g.on(FeatureSchedules) && d.IntRange("schedule", 0, 2) < 2 {
			t.Schedule = g.schedule()
		}
	}
	if runFor > 0 {
		cfg["run_for"] = runFor.String()
		cfg["exit_code"] = seeds.Pick(d, "exit code", []int{0, 0, 1})
	}
	if ka := d.IntRange("kill after ms", 0, 3000); ka > 0 {
		cfg["kill_after"] = (time.Duration(ka) * time.Millisecond).String()
	}
	if g.on(FeatureStartBlocks) && d.IntRange("start block", 0, 2) == 0 {
		cfg["start_block_for"] = (time.Duration(d.IntRange("start block ms", 1, 2000)) * time.Millisecond).String()
	}
	if g.on(FeatureStartErrors) && d.IntRange("start error", 0, 4) == 0 {
		cfg["start_error"] = "configured start failure"
		cfg["start_error_recoverable"] = d.Bool("start error recoverable")
	}
	if g.on(FeatureTraps) && d.IntRange("traps", 0, 2) == 0 {
		cfg["exit_on_signals"] = []any{"SIGHUP"}
	}
	t.Config = cfg
	return t
}

// schedule draws a window that opens and closes within or around the
// run: its start is a whole minute within the run, read in the zone, and
// it lasts 1 to 60 minutes (SCHED-3 fields, minute and hour only).
func (g generator) schedule() *schedule.Schedule {
	d := g.d
	zone := seeds.Pick(d, "zone", Zones)
	loc := time.UTC
	switch zone {
	case "Local":
		if g.s.LocalZone != "" {
			loc, _ = schedule.Location(g.s.LocalZone)
		}
	default:
		loc, _ = schedule.Location(zone)
	}
	if loc == nil {
		loc = time.UTC
	}
	mins := max(int(g.s.Duration.D()/time.Minute), 1)
	open := g.s.Start.Add(time.Duration(d.IntRange("window opens min", 0, mins)) * time.Minute).In(loc)
	shut := open.Add(time.Duration(d.IntRange("window length min", 1, 60)) * time.Minute)
	return &schedule.Schedule{Cron: &schedule.Cron{
		Start:    fmt.Sprintf("%d %d * * * *", open.Minute(), open.Hour()),
		End:      fmt.Sprintf("%d %d", shut.Minute(), shut.Hour()),
		Timezone: zone,
	}}
}

func (g generator) call(secs int) Call {
	d := g.d
	ja := seeds.Pick(d, "call job", g.s.Jobs)
	j := ja.Job
	tg := seeds.Pick(d, "call group", j.TaskGroups)
	task := seeds.Pick(d, "call task", tg.Tasks)
	c := Call{
		At: Duration(time.Duration(d.IntRange("call at s", int(ja.At.D()/time.Second), secs)) * time.Second),
		Op: seeds.Pick(d, "op", g.ops),
	}
	switch c.Op {
	case OpStopJob:
		c.Job = j.ID
	case OpUpdateSchedule:
		c.Job, c.Task = j.ID, task.Name
		if d.IntRange("unschedule", 0, 3) > 0 {
			c.Schedule = g.schedule()
		}
	default:
		c.Alloc = fmt.Sprintf("%s.%s[%d]", j.ID, tg.Name, d.IntRange("call alloc", 0, tg.Count-1))
		if c.Op != OpEvictAlloc {
			c.Task = task.Name
		}
		if c.Op == OpSignal {
			c.Signal = seeds.Pick(d, "signal", []string{"SIGHUP", "SIGUSR1", "SIGTERM"})
			if d.IntRange("signal all", 0, 3) == 0 {
				c.Task = ""
			}
		}
	}
	return c
}

// killTimeout draws a task's KillTimeout: 1 to 10 s, or, with the
// kill-over-cap feature on, sometimes unset (DATA-4's 5 s default) or
// over the client's 30 s max_kill_timeout (the cap applies).
func (g generator) killTimeout() time.Duration {
	d := g.d
	if g.on(FeatureOverCap) {
		switch d.IntRange("kill timeout kind", 0, 3) {
		case 0:
			return 0
		case 1:
			return time.Duration(d.IntRange("kill timeout over cap s", 31, 90)) * time.Second
		}
	}
	return time.Duration(d.IntRange("kill timeout s", 1, 10)) * time.Second
}
