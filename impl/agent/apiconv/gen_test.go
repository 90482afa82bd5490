package apiconv

import (
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"pgregory.net/rapid"
)

// Generators of domain values whose every field survives a JSON round trip:
// config values are JSON-shaped (string, float64, bool, []any, map), times
// are UTC instants or zero.

func genString(t *rapid.T, label string) string {
	return rapid.SampledFrom([]string{"", "a", "web", "x y", `q"uote`, "ünï"}).Draw(t, label)
}

func genOpt[T any](t *rapid.T, label string, g *rapid.Generator[T]) *T {
	if !rapid.Bool().Draw(t, label+"?") {
		return nil
	}
	v := g.Draw(t, label)
	return &v
}

func genDuration() *rapid.Generator[time.Duration] {
	return rapid.Custom(func(t *rapid.T) time.Duration {
		return time.Duration(rapid.Int64Range(0, int64(48*time.Hour)).Draw(t, "ns"))
	})
}

func genTime(t *rapid.T, label string) time.Time {
	if rapid.Bool().Draw(t, label+"-zero") {
		return time.Time{}
	}
	return time.Unix(0, rapid.Int64Range(0, 4102444800e9).Draw(t, label)).UTC()
}

func genConfigValue(t *rapid.T, depth int) any {
	kinds := 3
	if depth < 2 {
		kinds = 5
	}
	switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
	case 0:
		return genString(t, "s")
	case 1:
		return float64(rapid.IntRange(-5, 1000).Draw(t, "n"))
	case 2:
		return rapid.Bool().Draw(t, "b")
	case 3:
		n := rapid.IntRange(0, 2).Draw(t, "len")
		out := make([]any, n)
		for i := range out {
			out[i] = genConfigValue(t, depth+1)
		}
		return out
	default:
		return genConfigMap(t, depth+1)
	}
}

// genConfig is a task config: nil or a map. Nested maps are never nil, as
// a nil map in an interface does not survive JSON (it decodes as nil).
func genConfig(t *rapid.T, depth int) map[string]any {
	if rapid.Bool().Draw(t, "config-nil") {
		return nil
	}
	return genConfigMap(t, depth)
}

func genConfigMap(t *rapid.T, depth int) map[string]any {
	out := map[string]any{}
	for i := rapid.IntRange(0, 3).Draw(t, "keys"); i > 0; i-- {
		out[rapid.SampledFrom([]string{"command", "args", "run_for", "exit_code", "nested"}).Draw(t, "key")] = genConfigValue(t, depth)
	}
	return out
}

func genTask(t *rapid.T) *structs.Task {
	if rapid.IntRange(0, 9).Draw(t, "task-nil") == 0 {
		return nil
	}
	task := &structs.Task{
		Name:        genString(t, "name"),
		Driver:      rapid.SampledFrom([]string{"", "mock_driver", "docker"}).Draw(t, "driver"),
		Config:      genConfig(t, 0),
		Leader:      rapid.Bool().Draw(t, "leader"),
		KillTimeout: genDuration().Draw(t, "kill_timeout"),
		KillSignal:  rapid.SampledFrom([]string{"", "SIGINT", "SIGTERM"}).Draw(t, "kill_signal"),
	}
	if rapid.Bool().Draw(t, "lifecycle") {
		task.Lifecycle = &structs.TaskLifecycle{
			Hook:    rapid.SampledFrom([]string{"", "prestart", "poststart", "poststop"}).Draw(t, "hook"),
			Sidecar: rapid.Bool().Draw(t, "sidecar"),
		}
	}
	if rapid.Bool().Draw(t, "schedule") {
		task.Schedule = &schedule.Schedule{}
		if rapid.Bool().Draw(t, "cron") {
			task.Schedule.Cron = &schedule.Cron{
				Start:    rapid.SampledFrom([]string{"", "0 9 * * MON-FRI *", "30 21 * * * *"}).Draw(t, "start"),
				End:      rapid.SampledFrom([]string{"", "0 17", "15 3"}).Draw(t, "end"),
				Timezone: rapid.SampledFrom([]string{"", "Local", "America/New_York"}).Draw(t, "tz"),
			}
		}
	}
	if rapid.Bool().Draw(t, "mounts") {
		n := rapid.IntRange(0, 2).Draw(t, "nmounts")
		task.VolumeMounts = make([]*structs.VolumeMount, n)
		for i := range task.VolumeMounts {
			if rapid.IntRange(0, 4).Draw(t, "mount-nil") == 0 {
				continue
			}
			task.VolumeMounts[i] = &structs.VolumeMount{
				Volume: genString(t, "volume"), Destination: genString(t, "dest"),
				ReadOnly: rapid.Bool().Draw(t, "ro"),
			}
		}
	}
	return task
}

func genGroup(t *rapid.T) *structs.TaskGroup {
	if rapid.IntRange(0, 9).Draw(t, "group-nil") == 0 {
		return nil
	}
	tg := &structs.TaskGroup{
		Name:  genString(t, "group"),
		Count: rapid.IntRange(-1, 5).Draw(t, "count"),
	}
	if rapid.Bool().Draw(t, "restart") {
		tg.RestartPolicy = &structs.RestartPolicy{
			Attempts: genOpt(t, "attempts", rapid.IntRange(0, 5)),
			Interval: genOpt(t, "interval", genDuration()),
			Delay:    genOpt(t, "delay", genDuration()),
			Mode:     genOpt(t, "mode", rapid.SampledFrom([]string{"", "fail", "delay"})),
		}
	}
	if rapid.Bool().Draw(t, "tasks") {
		n := rapid.IntRange(0, 3).Draw(t, "ntasks")
		tg.Tasks = make([]*structs.Task, n)
		for i := range tg.Tasks {
			tg.Tasks[i] = genTask(t)
		}
	}
	if rapid.Bool().Draw(t, "volumes") {
		tg.Volumes = map[string]*structs.VolumeRequest{}
		for i := rapid.IntRange(0, 2).Draw(t, "nvolumes"); i > 0; i-- {
			alias := genString(t, "alias")
			if rapid.IntRange(0, 4).Draw(t, "volume-nil") == 0 {
				tg.Volumes[alias] = nil
				continue
			}
			tg.Volumes[alias] = &structs.VolumeRequest{
				Name: genString(t, "vname"), Type: rapid.SampledFrom([]string{"csi", "host"}).Draw(t, "vtype"),
				Source: genString(t, "source"), ReadOnly: rapid.Bool().Draw(t, "vro"),
			}
		}
	}
	return tg
}

func genJob(t *rapid.T) *structs.Job {
	j := &structs.Job{
		ID:        genString(t, "id"),
		Name:      genString(t, "jname"),
		Namespace: rapid.SampledFrom([]string{"", "default", "prod"}).Draw(t, "ns"),
		Type:      rapid.SampledFrom([]string{"", "service", "batch", "system", "sysbatch"}).Draw(t, "type"),
	}
	if rapid.Bool().Draw(t, "groups") {
		n := rapid.IntRange(0, 3).Draw(t, "ngroups")
		j.TaskGroups = make([]*structs.TaskGroup, n)
		for i := range j.TaskGroups {
			j.TaskGroups[i] = genGroup(t)
		}
	}
	// Parameterized jobs: meta (nil or non-empty, as JobFromAPI keeps it),
	// the parameterized block, a dispatched child's fields.
	if rapid.Bool().Draw(t, "meta") {
		j.Meta = map[string]string{genString(t, "meta-key") + "k": genString(t, "meta-value")}
	}
	if rapid.Bool().Draw(t, "parameterized") {
		keys := rapid.SliceOfN(rapid.SampledFrom([]string{"shard", "out", "runner"}), 0, 2)
		j.ParameterizedJob = &structs.ParameterizedJobConfig{
			Payload:      rapid.SampledFrom([]string{"", "optional", "required", "forbidden"}).Draw(t, "payload"),
			MetaRequired: keys.Draw(t, "meta-required"),
			MetaOptional: keys.Draw(t, "meta-optional"),
		}
	}
	if rapid.Bool().Draw(t, "dispatched") {
		j.ParentID, j.Dispatched = genString(t, "parent")+"p", true
	}
	return j
}

func genEvent(t *rapid.T) *structs.TaskEvent {
	if rapid.IntRange(0, 9).Draw(t, "event-nil") == 0 {
		return nil
	}
	e := &structs.TaskEvent{
		Type:             rapid.SampledFrom([]string{structs.TaskReceived, structs.TaskStarted, structs.TaskPausing, structs.TaskKilling}).Draw(t, "etype"),
		Time:             rapid.Int64Range(0, 4102444800e9).Draw(t, "etime"),
		Message:          genString(t, "msg"),
		DisplayMessage:   genString(t, "display"),
		FailsTask:        rapid.Bool().Draw(t, "fails"),
		RestartReason:    genString(t, "reason"),
		SetupError:       genString(t, "setup"),
		DriverError:      genString(t, "driver_error"),
		ExitCode:         rapid.IntRange(-1, 255).Draw(t, "exit"),
		Signal:           rapid.IntRange(0, 31).Draw(t, "signal"),
		KillReason:       genString(t, "kill_reason"),
		KillTimeout:      genDuration().Draw(t, "ekt"),
		KillError:        genString(t, "kill_error"),
		StartDelay:       rapid.Int64Range(0, int64(time.Hour)).Draw(t, "delay"),
		FailedSibling:    genString(t, "sibling"),
		TaskSignal:       genString(t, "task_signal"),
		TaskSignalReason: genString(t, "task_signal_reason"),
		ValidationError:  genString(t, "validation"),
	}
	if rapid.Bool().Draw(t, "details") {
		e.Details = map[string]string{}
		for i := rapid.IntRange(0, 3).Draw(t, "ndetails"); i > 0; i-- {
			e.Details[genString(t, "dk")] = genString(t, "dv")
		}
	}
	return e
}

func genTaskState(t *rapid.T) *structs.TaskState {
	if rapid.IntRange(0, 9).Draw(t, "state-nil") == 0 {
		return nil
	}
	s := &structs.TaskState{
		State:       rapid.SampledFrom([]string{"pending", "running", "dead"}).Draw(t, "state"),
		Failed:      rapid.Bool().Draw(t, "failed"),
		Restarts:    rapid.Uint64Range(0, 9).Draw(t, "restarts"),
		LastRestart: genTime(t, "last_restart"),
		StartedAt:   genTime(t, "started"),
		FinishedAt:  genTime(t, "finished"),
		Paused: rapid.SampledFrom([]structs.TaskScheduleState{"", structs.TaskScheduleStateSchedulePause,
			structs.TaskScheduleStateForceRun, structs.TaskScheduleStateForcePause}).Draw(t, "paused"),
	}
	if rapid.Bool().Draw(t, "events") {
		n := rapid.IntRange(0, 3).Draw(t, "nevents")
		s.Events = make([]*structs.TaskEvent, n)
		for i := range s.Events {
			s.Events[i] = genEvent(t)
		}
	}
	return s
}

func genAlloc(t *rapid.T) *structs.Allocation {
	a := &structs.Allocation{
		ID:                genString(t, "aid"),
		Name:              genString(t, "aname"),
		NodeID:            genString(t, "node"),
		Namespace:         genString(t, "ans"),
		JobID:             genString(t, "job_id"),
		TaskGroup:         genString(t, "tg"),
		DesiredStatus:     rapid.SampledFrom([]string{"run", "stop", "evict"}).Draw(t, "desired"),
		ClientStatus:      rapid.SampledFrom([]string{"pending", "running", "complete", "failed", "lost"}).Draw(t, "client"),
		ClientDescription: genString(t, "cdesc"),
		CreateIndex:       rapid.Uint64().Draw(t, "ci"),
		ModifyIndex:       rapid.Uint64().Draw(t, "mi"),
		AllocModifyIndex:  rapid.Uint64().Draw(t, "ami"),
		CreateTime:        rapid.Int64().Draw(t, "ct"),
		ModifyTime:        rapid.Int64().Draw(t, "mt"),
	}
	if rapid.Bool().Draw(t, "job") {
		a.Job = genJob(t)
	}
	if rapid.Bool().Draw(t, "states") {
		a.TaskStates = map[string]*structs.TaskState{}
		for i := rapid.IntRange(0, 3).Draw(t, "nstates"); i > 0; i-- {
			a.TaskStates[genString(t, "task")] = genTaskState(t)
		}
	}
	if rapid.Bool().Draw(t, "deployment") {
		a.DeploymentStatus = &structs.AllocDeploymentStatus{
			Healthy:     genOpt(t, "healthy", rapid.Bool()),
			Timestamp:   genTime(t, "dts"),
			Canary:      rapid.Bool().Draw(t, "canary"),
			ModifyIndex: rapid.Uint64().Draw(t, "dmi"),
		}
	}
	if rapid.Bool().Draw(t, "network") {
		a.NetworkStatus = &structs.AllocNetworkStatus{InterfaceName: genString(t, "if"), Address: genString(t, "addr")}
	}
	return a
}

// withoutPaused is a copy of a whose task states have Paused "", what a
// client decoding into plain API types sees.
func withoutPaused(a *structs.Allocation) *structs.Allocation {
	out := a.Copy()
	for _, s := range out.TaskStates {
		if s != nil {
			s.Paused = ""
		}
	}
	return out
}
