package jobspec

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
)

var lifecycleHooks = []string{
	structs.TaskLifecycleHookPrestart, structs.TaskLifecycleHookPoststart, structs.TaskLifecycleHookPoststop,
}

var (
	taskSchema = &schema{
		attrs:        []string{"driver", "kill_signal", "kill_timeout", "leader"},
		blocks:       []string{"config", "lifecycle", "schedule", "volume_mount"},
		ignoredAttrs: []string{"kind", "shutdown_delay", "user"},
		ignoredBlocks: []string{"action", "affinity", "artifact", "constraint", "consul", "csi_plugin",
			"dispatch_payload", "env", "identity", "logs", "meta", "resources", "scaling", "secret",
			"service", "template", "vault"},
		rejected: map[string]string{"restart": "a task-level restart policy is not modelled, set restart on the group"},
	}
	lifecycleSchema   = &schema{attrs: []string{"hook", "sidecar"}}
	scheduleSchema    = &schema{blocks: []string{"cron"}}
	cronSchema        = &schema{attrs: []string{"end", "start", "timezone"}}
	volumeMountSchema = &schema{
		attrs:        []string{"destination", "read_only", "volume"},
		ignoredAttrs: []string{"propagation_mode", "selinux_label"},
	}
)

// task reads a task of group tg (whose volumes are already read, for the
// volume_mount check); group names the group in messages.
func (d *decoder) task(b *hclsyntax.Block, tg *structs.TaskGroup, group string) *structs.Task {
	name, ok := d.label(b)
	where := fmt.Sprintf("task %q", name)
	c := d.content(b.Body, taskSchema, where)
	if !ok {
		return nil
	}
	t := &structs.Task{Name: name}
	d.require(c, b, "driver", where)
	t.Driver, _ = d.str(c, "driver")
	t.Leader, _ = d.boolean(c, "leader")
	t.KillTimeout, _ = d.duration(c, "kill_timeout")
	t.KillSignal, _ = d.str(c, "kill_signal")
	if cb := d.single(c, "config", where); cb != nil {
		t.Config, _ = d.config(cb.Body, "config", where)
	}
	if lb := d.single(c, "lifecycle", where); lb != nil {
		t.Lifecycle = d.lifecycle(lb, where)
	}
	if sb := d.single(c, "schedule", where); sb != nil {
		t.Schedule = d.schedule(sb, where)
	}
	for _, mb := range c.blocks["volume_mount"] {
		d.noLabels(mb)
		t.VolumeMounts = append(t.VolumeMounts, d.volumeMount(mb, tg, where, group))
	}
	return t
}

func (d *decoder) lifecycle(b *hclsyntax.Block, task string) *structs.TaskLifecycle {
	where := "the lifecycle block of " + task
	c := d.content(b.Body, lifecycleSchema, where)
	d.require(c, b, "hook", where)
	l := &structs.TaskLifecycle{}
	l.Hook, _ = d.oneOf(c, "hook", lifecycleHooks)
	l.Sidecar, _ = d.boolean(c, "sidecar")
	return l
}

// schedule reads a task schedule. Its content is validated at registration
// (SCHED-1, SCHED-2), so a schedule without cron, or a cron with empty or
// malformed start/end, decodes as written.
func (d *decoder) schedule(b *hclsyntax.Block, task string) *schedule.Schedule {
	where := "the schedule block of " + task
	c := d.content(b.Body, scheduleSchema, where)
	s := &schedule.Schedule{}
	cb := d.single(c, "cron", where)
	if cb == nil {
		return s
	}
	cc := d.content(cb.Body, cronSchema, "the cron block of "+task)
	s.Cron = &schedule.Cron{}
	s.Cron.Start, _ = d.str(cc, "start")
	s.Cron.End, _ = d.str(cc, "end")
	s.Cron.Timezone, _ = d.str(cc, "timezone")
	return s
}

// volumeMount reads a volume_mount; its volume must be one of the group's
// aliases.
func (d *decoder) volumeMount(b *hclsyntax.Block, tg *structs.TaskGroup, task, group string) *structs.VolumeMount {
	where := "a volume_mount block of " + task
	c := d.content(b.Body, volumeMountSchema, where)
	m := &structs.VolumeMount{}
	d.require(c, b, "volume", where)
	vol, set := d.str(c, "volume")
	m.Volume = vol
	if set {
		if _, declared := tg.Volumes[vol]; !declared {
			aliases := make([]string, 0, len(tg.Volumes))
			for alias := range tg.Volumes {
				aliases = append(aliases, alias)
			}
			sort.Strings(aliases)
			d.errorf(c.attrs["volume"].Expr.Range(), "Reference to undeclared volume",
				fmt.Sprintf("The volume_mount in %s refers to volume %q, but %s declares no such volume.", task, vol, group)+suggest(vol, aliases))
		}
	}
	m.Destination, _ = d.str(c, "destination")
	m.ReadOnly, _ = d.boolean(c, "read_only")
	return m
}
