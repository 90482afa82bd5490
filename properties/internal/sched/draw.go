package sched

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/scenario"
)

// The package's scenarios run one job of one group of one alloc, with
// the scheduled task taskName and, sometimes, an unscheduled sideName.
const (
	jobID     = "sj"
	taskName  = "work"
	sideName  = "side"
	AllocName = jobID + ".g[0]"
)

// Zones are non-UTC zones all year (so a runner reading UTC is seen),
// including half- and quarter-hour offsets.
var Zones = []string{"America/New_York", "Europe/Berlin", "Asia/Kolkata", "America/St_Johns",
	"Asia/Kathmandu", "Pacific/Chatham", "Australia/Adelaide", "America/Los_Angeles", "Asia/Tokyo",
	"Australia/Lord_Howe", "America/Sao_Paulo"}

// DSTZones observe DST (in the years drawn), including 30-minute DST
// (Lord_Howe), half-hour zones and midnight transitions.
var DSTZones = []string{"America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "America/St_Johns",
	"Pacific/Chatham", "Australia/Adelaide", "America/Havana", "America/Santiago", "Pacific/Auckland",
	"America/Los_Angeles", "Europe/Dublin", "Asia/Jerusalem"}

// Spec is what a scheduled task is built from.
type Spec struct {
	Start    time.Time
	Duration time.Duration
	// LocalZone is the client's zone; Timezone the schedule's ("Local"
	// reads LocalZone).
	LocalZone, Timezone string
	Cron                *schedule.Cron // nil: no schedule
	NoCron              bool           // a Schedule without Cron
	Config              map[string]any
	Policy              *structs.RestartPolicy
	Side                bool
	// SideCron, with Side, schedules the side task too.
	SideCron *schedule.Cron
	Calls    []scenario.Call
	Profile  string
}

// Build returns the scenario of s.
func (s Spec) Build() scenario.Scenario {
	t := &structs.Task{Name: taskName, Driver: "mock_driver", KillTimeout: 5 * time.Second, KillSignal: "SIGINT", Config: s.Config}
	if t.Config == nil {
		t.Config = map[string]any{}
	}
	if s.Cron != nil || s.NoCron {
		t.Schedule = &schedule.Schedule{Cron: s.Cron}
	}
	pol := s.Policy
	if pol == nil {
		pol = structs.NewRestartPolicy(2, 30*time.Minute, 15*time.Second, structs.RestartPolicyModeFail)
	}
	tg := &structs.TaskGroup{Name: "g", Count: 1, RestartPolicy: pol, Tasks: []*structs.Task{t}}
	if s.Side {
		side := &structs.Task{Name: sideName, Driver: "mock_driver", KillTimeout: 5 * time.Second,
			KillSignal: "SIGINT", Config: map[string]any{}}
		if s.SideCron != nil {
			side.Schedule = &schedule.Schedule{Cron: s.SideCron}
		}
		tg.Tasks = append(tg.Tasks, side)
	}
	j := &structs.Job{ID: jobID, Name: jobID, Type: structs.JobTypeService, TaskGroups: []*structs.TaskGroup{tg}}
	j.Canonicalize()
	prof := s.Profile
	if prof == "" {
		prof = string(schedule.ProfileEnt)
	}
	return scenario.Scenario{Start: s.Start, Duration: scenario.Duration(s.Duration), LocalZone: s.LocalZone,
		Profile: prof, Jobs: []scenario.JobAt{{Job: j}}, Calls: s.Calls}
}

// DrawZones draws the client's zone and the schedule's Timezone: a
// random zone, given by name or as "Local" of a client in that zone.
func DrawZones(d *prop.Drawer, zones []string) (local, tz string, loc *time.Location) {
	zone := prop.Pick(d, "zone", zones)
	loc, _ = schedule.Location(zone)
	if d.Bool("zone as Local") {
		return zone, "Local", loc
	}
	return prop.Pick(d, "client zone", Zones), zone, loc
}

// DrawDay draws a day of 2024, at 00:00 UTC; lastOK allows month ends.
func DrawDay(d *prop.Drawer, lastOK bool) time.Time {
	month := time.Month(d.IntRange("month", 1, 12))
	day := d.IntRange("day", 1, 28)
	if !lastOK {
		day = min(day, 27)
	}
	return time.Date(2024, month, day, 0, 0, 0, 0, time.UTC)
}

// Calls draws up to n override calls on the scheduled task at second 30
// of distinct minutes in [from, to) minutes of the run.
func Calls(d *prop.Drawer, n, from, to int) []scenario.Call {
	var out []scenario.Call
	at := from
	for i := 0; i < d.IntRange("calls", 0, n) && at < to; i++ {
		at = d.IntRange("call at min", at, to-1)
		op := prop.Pick(d, "op", []scenario.Op{scenario.OpPause, scenario.OpRun, scenario.OpResume})
		out = append(out, scenario.Call{At: scenario.Duration(time.Duration(at)*time.Minute + 30*time.Second),
			Op: op, Alloc: AllocName, Task: taskName})
		at++
	}
	return out
}

// wall formats the wall-clock minute and hour of t in loc as cron fields.
func wall(t time.Time, loc *time.Location) (minute, hour int) {
	l := t.In(loc)
	return l.Minute(), l.Hour()
}

func daily(m, h int) string { return fmt.Sprintf("%d %d * * * *", m, h) }
func at(m, h int) string    { return fmt.Sprintf("%d %d", m, h) }
