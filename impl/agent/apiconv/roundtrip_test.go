package apiconv

import (
	"encoding/json"
	"testing"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

// jsonRoundTrip encodes in and decodes the bytes into out.
func jsonRoundTrip(t *rapid.T, in, out any) {
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
}

// TestJobRoundTrip: domain → API → domain is the identity (DATA-2..4), in
// memory and through the API type's JSON (DATA-1).
func TestJobRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := genJob(t)
		if d := cmp.Diff(j, JobFromAPI(JobToAPI(j))); d != "" {
			t.Fatalf("JobFromAPI(JobToAPI(j)) differs (-want +got):\n%s", d)
		}
		var decoded api.Job
		jsonRoundTrip(t, JobToAPI(j), &decoded)
		if d := cmp.Diff(j, JobFromAPI(&decoded)); d != "" {
			t.Fatalf("job through JSON differs (-want +got):\n%s", d)
		}
	})
}

// TestAllocRoundTrip: domain → wire → domain is the identity, Paused
// included; a client decoding into plain api.Allocation gets everything
// but Paused (DATA-5, DATA-6).
func TestAllocRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genAlloc(t)
		wire := AllocToAPI(a)
		if d := cmp.Diff(a, wire.Domain()); d != "" {
			t.Fatalf("AllocToAPI(a).Domain() differs (-want +got):\n%s", d)
		}
		if d := cmp.Diff(withoutPaused(a), AllocFromAPI(&wire.Allocation)); d != "" {
			t.Fatalf("AllocFromAPI(embedded) differs (-want +got):\n%s", d)
		}
		var w Allocation
		jsonRoundTrip(t, wire, &w)
		if d := cmp.Diff(a, w.Domain()); d != "" {
			t.Fatalf("wire alloc through JSON differs (-want +got):\n%s", d)
		}
		var plain api.Allocation
		jsonRoundTrip(t, wire, &plain)
		if d := cmp.Diff(withoutPaused(a), AllocFromAPI(&plain)); d != "" {
			t.Fatalf("api.Allocation through JSON differs (-want +got):\n%s", d)
		}
	})
}

// TestStubRoundTrip: a stub keeps every DATA-5 field but Job (API-5); the
// plain API stub also loses AllocModifyIndex, NetworkStatus and Paused.
func TestStubRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genAlloc(t)
		want := a.Copy()
		want.Job = nil
		stub := StubToAPI(a)
		if a.Job != nil && stub.JobType != a.Job.Type {
			t.Fatalf("JobType = %q, want %q", stub.JobType, a.Job.Type)
		}
		if d := cmp.Diff(want, stub.Domain()); d != "" {
			t.Fatalf("StubToAPI(a).Domain() differs (-want +got):\n%s", d)
		}
		var w AllocationListStub
		jsonRoundTrip(t, stub, &w)
		if d := cmp.Diff(want, w.Domain()); d != "" {
			t.Fatalf("wire stub through JSON differs (-want +got):\n%s", d)
		}
		var plain api.AllocationListStub
		jsonRoundTrip(t, stub, &plain)
		wantPlain := withoutPaused(want)
		wantPlain.AllocModifyIndex, wantPlain.NetworkStatus = 0, nil
		if d := cmp.Diff(wantPlain, StubFromAPI(&plain)); d != "" {
			t.Fatalf("api stub through JSON differs (-want +got):\n%s", d)
		}
	})
}

// TestNoSharedMemory: mutating a conversion's result never changes its
// argument, in either direction.
func TestNoSharedMemory(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genAlloc(t)
		orig := AllocToAPI(a).Domain() // a deep copy (round trip, tested above)
		mutateAPIAlloc(AllocToAPI(a))
		if d := cmp.Diff(orig, a); d != "" {
			t.Fatalf("AllocToAPI result shares memory (-before +after):\n%s", d)
		}
		wire := AllocToAPI(a)
		before := AllocToAPI(a)
		mutateDomainAlloc(wire.Domain())
		mutateDomainAlloc(AllocFromAPI(&wire.Allocation))
		if d := cmp.Diff(before, wire); d != "" {
			t.Fatalf("Domain/AllocFromAPI result shares memory (-before +after):\n%s", d)
		}
	})
}

func mutateAPIAlloc(a *Allocation) {
	for _, s := range a.TaskStates {
		if s == nil {
			continue
		}
		s.State = "mutated"
		for _, e := range s.Events {
			if e != nil {
				e.Details = map[string]string{"mutated": "yes"}
			}
		}
	}
	if a.DeploymentStatus != nil && a.DeploymentStatus.Healthy != nil {
		*a.DeploymentStatus.Healthy = !*a.DeploymentStatus.Healthy
	}
	if a.Job != nil {
		for _, tg := range a.Job.TaskGroups {
			if tg == nil {
				continue
			}
			if tg.RestartPolicy != nil && tg.RestartPolicy.Attempts != nil {
				*tg.RestartPolicy.Attempts += 100
			}
			for _, task := range tg.Tasks {
				if task == nil {
					continue
				}
				for k := range task.Config {
					task.Config[k] = "mutated"
				}
				if task.Schedule != nil && task.Schedule.Cron != nil {
					task.Schedule.Cron.Start = "mutated"
				}
			}
		}
	}
}

func mutateDomainAlloc(a *structs.Allocation) {
	for _, s := range a.TaskStates {
		if s == nil {
			continue
		}
		s.State = "mutated"
		for _, e := range s.Events {
			if e != nil {
				for k := range e.Details {
					e.Details[k] = "mutated"
				}
			}
		}
	}
	if a.Job != nil {
		for _, tg := range a.Job.TaskGroups {
			if tg == nil {
				continue
			}
			for alias, v := range tg.Volumes {
				if v != nil {
					tg.Volumes[alias].Source = "mutated"
				}
			}
			for _, task := range tg.Tasks {
				if task != nil && task.Lifecycle != nil {
					task.Lifecycle.Hook = "mutated"
				}
			}
		}
	}
}

// TestConfigDeepCopy: task configs built in code (not from JSON) may hold
// []string and []map[string]any; they are copied, nil kept nil.
func TestConfigDeepCopy(t *testing.T) {
	in := map[string]any{
		"args":    []string{"a", "b"},
		"mounts":  []map[string]any{{"target": "/x"}, nil},
		"nilargs": []string(nil),
		"nilmaps": []map[string]any(nil),
		"nilany":  []any(nil),
		"nilmap":  map[string]any(nil),
		"n":       3,
	}
	task := &structs.Task{Name: "t", Config: in}
	out := taskFromAPI(taskToAPI(task)).Config
	must.Eq(t, in, out)
	out["args"].([]string)[0] = "changed"
	out["mounts"].([]map[string]any)[0]["target"] = "changed"
	must.EqOp(t, "a", in["args"].([]string)[0])
	must.EqOp(t, "/x", in["mounts"].([]map[string]any)[0]["target"])
	must.Nil(t, out["nilargs"].([]string))
	must.Nil(t, out["nilmaps"].([]map[string]any))
	must.Nil(t, out["nilany"].([]any))
	must.Nil(t, out["nilmap"].(map[string]any))
}
