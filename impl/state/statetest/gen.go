package statetest

import (
	"time"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// Generators of every stored value. Collections are sometimes nil and
// sometimes empty, because the store must keep the difference; times are
// UTC and zero or within this century.

var (
	genName = rapid.StringMatching(`[a-z][a-z0-9-]{0,6}`)
	genText = rapid.String()
)

func genStrMap() *rapid.Generator[map[string]string] {
	return rapid.OneOf(
		rapid.Just[map[string]string](nil),
		rapid.MapOfN(genName, genText, 0, 3),
	)
}

func genTime() *rapid.Generator[time.Time] {
	return rapid.OneOf(
		rapid.Just(time.Time{}),
		rapid.Custom(func(t *rapid.T) time.Time {
			return time.Unix(0, rapid.Int64Range(0, 4e18).Draw(t, "ns")).UTC()
		}),
	)
}

func ptr[V any](v V) *V { return &v }

func genPtr[V any](g *rapid.Generator[*V]) *rapid.Generator[*V] {
	return rapid.OneOf(rapid.Just[*V](nil), g)
}

func genTaskEvent() *rapid.Generator[*structs.TaskEvent] {
	return rapid.Custom(func(t *rapid.T) *structs.TaskEvent {
		return &structs.TaskEvent{
			Type:           rapid.SampledFrom([]string{structs.TaskReceived, structs.TaskStarted, structs.TaskRestarting, structs.TaskTerminated}).Draw(t, "type"),
			Time:           rapid.Int64().Draw(t, "time"),
			Message:        genText.Draw(t, "message"),
			DisplayMessage: genText.Draw(t, "display"),
			Details:        genStrMap().Draw(t, "details"),
			FailsTask:      rapid.Bool().Draw(t, "fails"),
			ExitCode:       rapid.IntRange(-1, 255).Draw(t, "exit"),
			KillTimeout:    time.Duration(rapid.Int64().Draw(t, "kill_timeout")),
			StartDelay:     rapid.Int64().Draw(t, "start_delay"),
		}
	})
}

// GenTaskState draws a TaskState with up to 3 events.
func GenTaskState() *rapid.Generator[*structs.TaskState] {
	return rapid.Custom(func(t *rapid.T) *structs.TaskState {
		return &structs.TaskState{
			State:       rapid.SampledFrom([]string{structs.TaskStatePending, structs.TaskStateRunning, structs.TaskStateDead}).Draw(t, "state"),
			Failed:      rapid.Bool().Draw(t, "failed"),
			Restarts:    rapid.Uint64().Draw(t, "restarts"),
			LastRestart: genTime().Draw(t, "last_restart"),
			StartedAt:   genTime().Draw(t, "started"),
			FinishedAt:  genTime().Draw(t, "finished"),
			Events: rapid.OneOf(rapid.Just[[]*structs.TaskEvent](nil),
				rapid.SliceOfN(genTaskEvent(), 0, 3)).Draw(t, "events"),
			Paused: rapid.SampledFrom([]structs.TaskScheduleState{structs.TaskScheduleStateRun,
				structs.TaskScheduleStateSchedulePause, structs.TaskScheduleStateForceRun,
				structs.TaskScheduleStateForcePause}).Draw(t, "paused"),
		}
	})
}

func genTaskStates() *rapid.Generator[map[string]*structs.TaskState] {
	return rapid.OneOf(rapid.Just[map[string]*structs.TaskState](nil),
		rapid.MapOfN(genName, GenTaskState(), 0, 2))
}

// GenDeploymentStatus draws a deployment status (Healthy may be nil).
func GenDeploymentStatus() *rapid.Generator[*structs.AllocDeploymentStatus] {
	return rapid.Custom(func(t *rapid.T) *structs.AllocDeploymentStatus {
		return &structs.AllocDeploymentStatus{
			Healthy:     genPtr(rapid.Ptr(rapid.Bool(), false)).Draw(t, "healthy"),
			Timestamp:   genTime().Draw(t, "timestamp"),
			Canary:      rapid.Bool().Draw(t, "canary"),
			ModifyIndex: rapid.Uint64().Draw(t, "modify_index"),
		}
	})
}

// GenNetworkStatus draws a network status.
func GenNetworkStatus() *rapid.Generator[*structs.AllocNetworkStatus] {
	return rapid.Custom(func(t *rapid.T) *structs.AllocNetworkStatus {
		return &structs.AllocNetworkStatus{InterfaceName: genName.Draw(t, "iface"), Address: genText.Draw(t, "address")}
	})
}

// GenAllocState draws an acknowledged state.
func GenAllocState() *rapid.Generator[*structs.AllocState] {
	return rapid.Custom(func(t *rapid.T) *structs.AllocState {
		return &structs.AllocState{
			ClientStatus:      rapid.SampledFrom([]string{"pending", "running", "complete", "failed"}).Draw(t, "client_status"),
			ClientDescription: genText.Draw(t, "description"),
			TaskStates:        genTaskStates().Draw(t, "task_states"),
			DeploymentStatus:  genPtr(GenDeploymentStatus()).Draw(t, "deploy"),
			NetworkStatus:     genPtr(GenNetworkStatus()).Draw(t, "network"),
		}
	})
}

func genTask() *rapid.Generator[*structs.Task] {
	return rapid.Custom(func(t *rapid.T) *structs.Task {
		task := &structs.Task{
			Name:        genName.Draw(t, "name"),
			Driver:      "mock",
			Config:      map[string]any{"run_for": rapid.Int64Range(0, 1e12).Draw(t, "run_for"), "argv": []any{genText.Draw(t, "arg")}},
			Leader:      rapid.Bool().Draw(t, "leader"),
			KillTimeout: time.Duration(rapid.Int64Range(0, 1e11).Draw(t, "kill")),
			KillSignal:  "SIGINT",
		}
		if rapid.Bool().Draw(t, "prestart") {
			task.Lifecycle = &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPrestart, Sidecar: rapid.Bool().Draw(t, "sidecar")}
		}
		if rapid.Bool().Draw(t, "scheduled") {
			task.Schedule = &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * *", End: "0 17 * * *", Timezone: "Europe/Paris"}}
		}
		if rapid.Bool().Draw(t, "mount") {
			task.VolumeMounts = []*structs.VolumeMount{{Volume: "data", Destination: "/data", ReadOnly: true}}
		}
		return task
	})
}

// GenAllocation draws an allocation with the given ID and a job of one group.
func GenAllocation(id string) *rapid.Generator[*structs.Allocation] {
	return rapid.Custom(func(t *rapid.T) *structs.Allocation {
		tg := &structs.TaskGroup{
			Name:  "group",
			Count: rapid.IntRange(0, 3).Draw(t, "count"),
			RestartPolicy: &structs.RestartPolicy{Attempts: ptr(rapid.IntRange(0, 5).Draw(t, "attempts")),
				Interval: ptr(30 * time.Minute), Delay: ptr(15 * time.Second), Mode: ptr("fail")},
			Tasks: rapid.SliceOfN(genTask(), 1, 3).Draw(t, "tasks"),
		}
		if rapid.Bool().Draw(t, "volumes") {
			tg.Volumes = map[string]*structs.VolumeRequest{"data": {Name: "data", Type: structs.VolumeTypeCSI, Source: genName.Draw(t, "source")}}
		}
		return &structs.Allocation{
			ID: id, Name: "job.group[0]", NodeID: genName.Draw(t, "node"), Namespace: "default",
			JobID: "job", TaskGroup: "group",
			Job:               &structs.Job{ID: "job", Name: "job", Namespace: "default", Type: "service", TaskGroups: []*structs.TaskGroup{tg}},
			DesiredStatus:     rapid.SampledFrom([]string{"run", "stop", "evict"}).Draw(t, "desired"),
			ClientStatus:      rapid.SampledFrom([]string{"pending", "running", "complete", "failed"}).Draw(t, "client"),
			ClientDescription: genText.Draw(t, "description"),
			TaskStates:        genTaskStates().Draw(t, "task_states"),
			DeploymentStatus:  genPtr(GenDeploymentStatus()).Draw(t, "deploy"),
			NetworkStatus:     genPtr(GenNetworkStatus()).Draw(t, "network"),
			CreateIndex:       rapid.Uint64().Draw(t, "create_index"),
			ModifyIndex:       rapid.Uint64().Draw(t, "modify_index"),
			AllocModifyIndex:  rapid.Uint64().Draw(t, "alloc_modify_index"),
			CreateTime:        rapid.Int64().Draw(t, "create_time"),
			ModifyTime:        rapid.Int64().Draw(t, "modify_time"),
		}
	})
}

// GenLocalState draws a task runner's local state.
func GenLocalState() *rapid.Generator[*interfaces.LocalState] {
	hook := rapid.Custom(func(t *rapid.T) *interfaces.HookState {
		return &interfaces.HookState{PrestartDone: rapid.Bool().Draw(t, "done"), Data: genStrMap().Draw(t, "data"), Env: genStrMap().Draw(t, "env")}
	})
	network := rapid.Custom(func(t *rapid.T) *interfaces.DriverNetwork {
		return &interfaces.DriverNetwork{
			PortMap:       rapid.OneOf(rapid.Just[map[string]int](nil), rapid.MapOfN(genName, rapid.IntRange(1, 65535), 0, 2)).Draw(t, "ports"),
			IP:            genText.Draw(t, "ip"),
			AutoAdvertise: rapid.Bool().Draw(t, "advertise"),
		}
	})
	handle := rapid.Custom(func(t *rapid.T) *drivers.TaskHandle {
		return &drivers.TaskHandle{
			Version: rapid.IntRange(0, 3).Draw(t, "version"), Driver: "mock", TaskID: genName.Draw(t, "task_id"),
			DriverState: rapid.OneOf(rapid.Just[[]byte](nil), rapid.SliceOfN(rapid.Byte(), 0, 16)).Draw(t, "driver_state"),
		}
	})
	return rapid.Custom(func(t *rapid.T) *interfaces.LocalState {
		return &interfaces.LocalState{
			Hooks:         rapid.OneOf(rapid.Just[map[string]*interfaces.HookState](nil), rapid.MapOfN(genName, hook, 0, 3)).Draw(t, "hooks"),
			DriverNetwork: genPtr(network).Draw(t, "network"),
			TaskHandle:    genPtr(handle).Draw(t, "handle"),
			RunComplete:   rapid.Bool().Draw(t, "run_complete"),
		}
	})
}

// GenAllocVolumes draws CSI stubs.
func GenAllocVolumes() *rapid.Generator[*interfaces.AllocVolumes] {
	stub := rapid.Custom(func(t *rapid.T) *interfaces.CSIVolumeStub {
		s := &interfaces.CSIVolumeStub{
			VolumeID: genName.Draw(t, "volume_id"), VolumeName: genName.Draw(t, "volume_name"),
			PluginID: genName.Draw(t, "plugin"), ExternalNodeID: genName.Draw(t, "node"),
			ReadOnly:       rapid.Bool().Draw(t, "ro"),
			AttachmentMode: rapid.SampledFrom([]string{"file-system", "block-device"}).Draw(t, "attach"),
			AccessMode:     rapid.SampledFrom([]string{"single-node-writer", "multi-node-reader-only"}).Draw(t, "access"),
		}
		if rapid.Bool().Draw(t, "mounted") {
			s.MountInfo = &interfaces.CSIMountPoint{Source: "/csi/" + s.VolumeID, IsDevice: rapid.Bool().Draw(t, "device")}
		}
		return s
	})
	return rapid.Custom(func(t *rapid.T) *interfaces.AllocVolumes {
		return &interfaces.AllocVolumes{CSIVolumes: rapid.OneOf(rapid.Just[map[string]*interfaces.CSIVolumeStub](nil),
			rapid.MapOfN(genName, stub, 0, 3)).Draw(t, "csi")}
	})
}
