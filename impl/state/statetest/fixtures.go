package statetest

import (
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// Fully populated values (every pointer, map and slice set) and mutators
// that change something behind every one of them, for DeepCopyIsolation.
type fixture struct {
	full   func(allocID string) any
	mutate func(v any)
}

var fixtures = map[string]fixture{
	state.KeyAlloc: {
		full:   func(id string) any { return fullAlloc(id) },
		mutate: func(v any) { mutateAlloc(v.(*structs.Allocation)) },
	},
	state.KeyAcknowledgedState: {
		full: func(string) any {
			return &structs.AllocState{ClientStatus: "running", ClientDescription: "d",
				TaskStates:       map[string]*structs.TaskState{"web": fullTaskState()},
				DeploymentStatus: fullDeployStatus(), NetworkStatus: &structs.AllocNetworkStatus{InterfaceName: "eth0", Address: "10.0.0.1"}}
		},
		mutate: func(v any) {
			s := v.(*structs.AllocState)
			s.ClientStatus = "failed"
			mutateTaskState(s.TaskStates["web"])
			s.TaskStates["other"] = fullTaskState()
			mutateDeployStatus(s.DeploymentStatus)
			s.NetworkStatus.Address = "mutated"
		},
	},
	state.KeyDeployStatus: {
		full:   func(string) any { return fullDeployStatus() },
		mutate: func(v any) { mutateDeployStatus(v.(*structs.AllocDeploymentStatus)) },
	},
	state.KeyNetworkStatus: {
		full:   func(string) any { return &structs.AllocNetworkStatus{InterfaceName: "eth0", Address: "10.0.0.1"} },
		mutate: func(v any) { v.(*structs.AllocNetworkStatus).Address = "mutated" },
	},
	state.KeyAllocVolume: {
		full: func(string) any {
			return &interfaces.AllocVolumes{CSIVolumes: map[string]*interfaces.CSIVolumeStub{"data": {
				VolumeID: "vol", VolumeName: "data", PluginID: "plug", ExternalNodeID: "n1",
				AttachmentMode: "file-system", AccessMode: "single-node-writer",
				MountInfo: &interfaces.CSIMountPoint{Source: "/csi/vol"}}}}
		},
		mutate: func(v any) {
			av := v.(*interfaces.AllocVolumes)
			av.CSIVolumes["data"].ReadOnly = true
			av.CSIVolumes["data"].MountInfo.Source = "mutated"
			av.CSIVolumes["extra"] = &interfaces.CSIVolumeStub{VolumeID: "x"}
		},
	},
	state.KeyLocalState: {
		full: func(string) any {
			return &interfaces.LocalState{
				Hooks: map[string]*interfaces.HookState{"task_dir": {PrestartDone: true,
					Data: map[string]string{"k": "v"}, Env: map[string]string{"E": "1"}}},
				DriverNetwork: &interfaces.DriverNetwork{PortMap: map[string]int{"http": 8080}, IP: "10.0.0.2"},
				TaskHandle:    &drivers.TaskHandle{Version: 1, Driver: "mock", TaskID: "a/web", DriverState: []byte("pid=1")},
			}
		},
		mutate: func(v any) {
			ls := v.(*interfaces.LocalState)
			h := ls.Hooks["task_dir"]
			h.PrestartDone = false
			h.Data["k"] = "mutated"
			h.Env["E"] = "mutated"
			ls.Hooks["new"] = &interfaces.HookState{}
			ls.DriverNetwork.PortMap["http"] = 1
			ls.TaskHandle.DriverState[0] = 'X'
			ls.RunComplete = true
		},
	},
	state.KeyTaskState: {
		full:   func(string) any { return fullTaskState() },
		mutate: func(v any) { mutateTaskState(v.(*structs.TaskState)) },
	},
}

func fullTaskState() *structs.TaskState {
	at := time.Unix(1700000000, 0).UTC()
	return &structs.TaskState{State: structs.TaskStateRunning, Restarts: 1, LastRestart: at, StartedAt: at,
		Paused: structs.TaskScheduleStateForceRun,
		Events: []*structs.TaskEvent{{Type: structs.TaskStarted, Time: at.UnixNano(), Message: "m",
			Details: map[string]string{"message": "m"}}}}
}

func mutateTaskState(ts *structs.TaskState) {
	ts.State = structs.TaskStateDead
	ts.Events[0].Message = "mutated"
	ts.Events[0].Details["message"] = "mutated"
	ts.Events = append(ts.Events, &structs.TaskEvent{Type: structs.TaskKilled})
}

func fullDeployStatus() *structs.AllocDeploymentStatus {
	return &structs.AllocDeploymentStatus{Healthy: ptr(true), Timestamp: time.Unix(1700000000, 0).UTC(), ModifyIndex: 7}
}

func mutateDeployStatus(d *structs.AllocDeploymentStatus) {
	*d.Healthy = false
	d.ModifyIndex++
}

func fullAlloc(id string) *structs.Allocation {
	task := &structs.Task{Name: "web", Driver: "mock",
		Config:       map[string]any{"command": "sleep", "args": []any{"10"}},
		Lifecycle:    &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPrestart, Sidecar: true},
		Schedule:     &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * *", End: "0 17 * * *", Timezone: "UTC"}},
		VolumeMounts: []*structs.VolumeMount{{Volume: "data", Destination: "/data"}}}
	tg := &structs.TaskGroup{Name: "group", Count: 1,
		RestartPolicy: &structs.RestartPolicy{Attempts: ptr(2), Interval: ptr(30 * time.Minute), Delay: ptr(15 * time.Second), Mode: ptr("fail")},
		Tasks:         []*structs.Task{task},
		Volumes:       map[string]*structs.VolumeRequest{"data": {Name: "data", Type: structs.VolumeTypeCSI, Source: "vol"}}}
	return &structs.Allocation{
		ID: id, NodeID: "node", Namespace: "default", JobID: "job", TaskGroup: "group",
		Job:              &structs.Job{ID: "job", Name: "job", Namespace: "default", Type: "service", TaskGroups: []*structs.TaskGroup{tg}},
		DesiredStatus:    "run",
		ClientStatus:     "running",
		TaskStates:       map[string]*structs.TaskState{"web": fullTaskState()},
		DeploymentStatus: fullDeployStatus(),
		NetworkStatus:    &structs.AllocNetworkStatus{InterfaceName: "eth0", Address: "10.0.0.1"},
	}
}

func mutateAlloc(a *structs.Allocation) {
	tg := a.Job.TaskGroups[0]
	task := tg.Tasks[0]
	task.Config["command"] = "mutated"
	task.Config["args"].([]any)[0] = "mutated"
	task.Lifecycle.Sidecar = false
	task.Schedule.Cron.Start = "mutated"
	task.VolumeMounts[0].Destination = "mutated"
	*tg.RestartPolicy.Attempts = 99
	tg.Volumes["data"].ReadOnly = true
	tg.Tasks = append(tg.Tasks, &structs.Task{Name: "extra"})
	a.Job.Name = "mutated"
	mutateTaskState(a.TaskStates["web"])
	a.TaskStates["extra"] = fullTaskState()
	mutateDeployStatus(a.DeploymentStatus)
	a.NetworkStatus.Address = "mutated"
	a.ClientStatus = "failed"
}
