package scenario

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
)

// String prints the scenario in a readable, deterministic text form: a
// header, one block per job (groups, tasks, their config, schedules and
// mounts), one line per call, then the fault plan.
func (s Scenario) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "scenario %q seed=%d\n", s.Name, s.Seed)
	fmt.Fprintf(&b, "start %s duration %s", s.Start.Format("2006-01-02T15:04:05Z07:00"), s.Duration)
	if s.LocalZone != "" {
		fmt.Fprintf(&b, " local_zone=%s", s.LocalZone)
	}
	if s.Profile != "" {
		fmt.Fprintf(&b, " profile=%s", s.Profile)
	}
	if l := s.HookLatency; l != nil {
		fmt.Fprintf(&b, " alloc_dir_build=%s task_dir_build=%s", l.AllocDirBuild, l.TaskDirBuild)
	}
	if s.DisableAllocationHookMetrics {
		b.WriteString(" disable_allocation_hook_metrics")
	}
	if s.NodeClass != "" {
		fmt.Fprintf(&b, " node_class=%s", s.NodeClass)
	}
	b.WriteString("\n")
	if len(s.Features) > 0 {
		fmt.Fprintf(&b, "features %s\n", strings.Join(s.Features, " "))
	}
	for _, j := range s.Jobs {
		writeJob(&b, j)
	}
	for _, c := range s.Calls {
		b.WriteString(c.String() + "\n")
	}
	b.WriteString("faults\n")
	for _, l := range strings.Split(s.Faults.String(), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// String prints the call on one line: "call +<at> <op> <target> ...".
func (c Call) String() string {
	parts := []string{"call", "+" + c.At.String(), string(c.Op)}
	if c.Alloc != "" {
		parts = append(parts, c.Alloc)
	}
	if c.Job != "" {
		parts = append(parts, "job="+c.Job)
	}
	if c.Task != "" {
		parts = append(parts, "task="+c.Task)
	}
	if c.Signal != "" {
		parts = append(parts, "signal="+c.Signal)
	}
	if c.Op == OpUpdateSchedule {
		parts = append(parts, "schedule="+scheduleString(c.Schedule))
	}
	return strings.Join(parts, " ")
}

func writeJob(b *strings.Builder, ja JobAt) {
	j := ja.Job
	if j == nil {
		fmt.Fprintf(b, "job <nil> at +%s\n", ja.At)
		return
	}
	fmt.Fprintf(b, "job %s at +%s type=%s namespace=%s\n", j.ID, ja.At, j.Type, j.Namespace)
	for _, tg := range j.TaskGroups {
		if tg == nil {
			continue
		}
		fmt.Fprintf(b, "  group %s count=%d restart=%s", tg.Name, tg.Count, restartString(tg.RestartPolicy))
		for _, alias := range slices.Sorted(maps.Keys(tg.Volumes)) {
			v := tg.Volumes[alias]
			fmt.Fprintf(b, " volume=%s:%s:%s", alias, v.Type, v.Source)
		}
		b.WriteString("\n")
		for _, t := range tg.Tasks {
			writeTask(b, t)
		}
	}
}

func writeTask(b *strings.Builder, t *structs.Task) {
	fmt.Fprintf(b, "    task %s driver=%s", t.Name, t.Driver)
	if t.Lifecycle != nil {
		fmt.Fprintf(b, " lifecycle=%s", t.Lifecycle.Hook)
		if t.Lifecycle.Sidecar {
			b.WriteString("+sidecar")
		}
	}
	if t.Leader {
		b.WriteString(" leader")
	}
	fmt.Fprintf(b, " kill_timeout=%s kill_signal=%s config=%v\n", t.KillTimeout, t.KillSignal, t.Config)
	if t.Schedule != nil {
		fmt.Fprintf(b, "      schedule %s\n", scheduleString(t.Schedule))
	}
	for _, m := range t.VolumeMounts {
		fmt.Fprintf(b, "      mount %s at %s read_only=%t\n", m.Volume, m.Destination, m.ReadOnly)
	}
}

func scheduleString(s *schedule.Schedule) string {
	switch {
	case s == nil:
		return "none"
	case s.Cron == nil:
		return "{no cron}"
	}
	return fmt.Sprintf("start=%q end=%q tz=%q", s.Cron.Start, s.Cron.End, s.Cron.Timezone)
}

func restartString(p *structs.RestartPolicy) string {
	if p == nil {
		return "default"
	}
	return fmt.Sprintf("%d/%s/%s/%s", p.GetAttempts(), p.GetInterval(), p.GetDelay(), p.GetMode())
}
