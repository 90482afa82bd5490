package syncpolicy

import (
	"fmt"
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/model/structs"
)

// This file is a deliberately naive second implementation of SYNC-2 (with
// DATA-6's task state equality) and of SYNC-4's check order, written from
// SPEC.md's text alone, and the property tests that compare the package
// with it. It compares field by field as the SPEC lists them and never
// calls the package or the structs helpers (Equal, TaskStatesEqual, ...).
//
// Readings of SPEC text the naive code had to choose:
//   - times are instants: LastRestart, StartedAt, FinishedAt and a
//     deployment Timestamp are equal when time.Time.Equal says so (the
//     same instant in another location is no change);
//   - Details are compared by content: a nil map equals an empty one (both
//     say "no details");
//   - DeploymentStatus and NetworkStatus are compared by presence, then
//     field by field (Healthy by presence and value).

// naiveTimeEq compares instants.
func naiveTimeEq(a, b time.Time) bool { return a.Equal(b) }

func naiveDetailsEq(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// naiveEventEq is DATA-6's event part: "Events (Type, Time, Message,
// DisplayMessage, Details)".
func naiveEventEq(a, b *structs.TaskEvent) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Type == b.Type && a.Time == b.Time && a.Message == b.Message &&
		a.DisplayMessage == b.DisplayMessage && naiveDetailsEq(a.Details, b.Details)
}

// naiveTaskStateEq is DATA-6's equality: "State, Failed, Restarts,
// LastRestart, StartedAt, FinishedAt, Paused, Events (...)".
func naiveTaskStateEq(a, b *structs.TaskState) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.State != b.State || a.Failed != b.Failed || a.Restarts != b.Restarts ||
		!naiveTimeEq(a.LastRestart, b.LastRestart) || !naiveTimeEq(a.StartedAt, b.StartedAt) ||
		!naiveTimeEq(a.FinishedAt, b.FinishedAt) || a.Paused != b.Paused || len(a.Events) != len(b.Events) {
		return false
	}
	for i := range a.Events {
		if !naiveEventEq(a.Events[i], b.Events[i]) {
			return false
		}
	}
	return true
}

func naiveTaskStatesEq(a, b map[string]*structs.TaskState) bool {
	if len(a) != len(b) {
		return false
	}
	for name, sa := range a {
		sb, ok := b[name]
		if !ok || !naiveTaskStateEq(sa, sb) {
			return false
		}
	}
	return true
}

func naiveDeployEq(a, b *structs.AllocDeploymentStatus) bool {
	if a == nil || b == nil {
		return a == b
	}
	healthyEq := (a.Healthy == nil) == (b.Healthy == nil) && (a.Healthy == nil || *a.Healthy == *b.Healthy)
	return healthyEq && naiveTimeEq(a.Timestamp, b.Timestamp) && a.Canary == b.Canary && a.ModifyIndex == b.ModifyIndex
}

func naiveNetworkEq(a, b *structs.AllocNetworkStatus) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// naivePriority is SYNC-2: "none acknowledged → Urgent if failed, else
// Typical; ClientStatus differs → Urgent; ClientDescription,
// DeploymentStatus, NetworkStatus or TaskStates (DATA-6) differ → Typical;
// else None".
func naivePriority(u *structs.Allocation, acked *structs.AllocState) int {
	switch {
	case acked == nil && u.ClientStatus == "failed":
		return 2
	case acked == nil:
		return 1
	case u.ClientStatus != acked.ClientStatus:
		return 2
	case u.ClientDescription != acked.ClientDescription, !naiveDeployEq(u.DeploymentStatus, acked.DeploymentStatus),
		!naiveNetworkEq(u.NetworkStatus, acked.NetworkStatus), !naiveTaskStatesEq(u.TaskStates, acked.TaskStates):
		return 1
	}
	return 0
}

var naiveT0 = time.Date(2024, 3, 10, 1, 30, 0, 0, time.UTC)

// naiveElsewhere is a fixed zone for "same instant, other location".
var naiveElsewhere = time.FixedZone("UTC+5", 5*3600)

// naiveState draws a task state with 0..3 events.
func naiveState(rt *rapid.T, label string) *structs.TaskState {
	s := &structs.TaskState{
		State:    rapid.SampledFrom([]string{"pending", "running", "dead"}).Draw(rt, label+"/state"),
		Failed:   rapid.Bool().Draw(rt, label+"/failed"),
		Restarts: uint64(rapid.IntRange(0, 2).Draw(rt, label+"/restarts")),
		Paused:   rapid.SampledFrom([]structs.TaskScheduleState{"", "scheduled_pause", "force_run"}).Draw(rt, label+"/paused"),
	}
	if rapid.Bool().Draw(rt, label+"/started") {
		s.StartedAt = naiveT0.Add(time.Minute)
	}
	for i := range rapid.IntRange(0, 3).Draw(rt, label+"/events") {
		e := &structs.TaskEvent{Type: rapid.SampledFrom([]string{"Received", "Started", "Terminated"}).Draw(rt, label+"/type"),
			Time: naiveT0.Add(time.Duration(i) * time.Second).UnixNano(), Message: "m", DisplayMessage: "d"}
		if rapid.Bool().Draw(rt, label+"/details") {
			e.Details = map[string]string{"exit_code": "0"}
		}
		s.Events = append(s.Events, e)
	}
	return s
}

// naivePerturb changes one thing of a copy of the acknowledged state, or
// nothing, and says what.
func naivePerturb(rt *rapid.T, acked *structs.AllocState) (*structs.Allocation, string) {
	c := acked.Copy()
	u := &structs.Allocation{ID: "a1", NodeID: "n1", ClientStatus: c.ClientStatus, ClientDescription: c.ClientDescription,
		TaskStates: c.TaskStates, DeploymentStatus: c.DeploymentStatus, NetworkStatus: c.NetworkStatus}
	names := structs.SortedTaskNames(u.TaskStates)
	anyTask := func() *structs.TaskState {
		if len(names) == 0 {
			return nil
		}
		return u.TaskStates[rapid.SampledFrom(names).Draw(rt, "task")]
	}
	anyEvent := func() *structs.TaskEvent {
		s := anyTask()
		if s == nil || len(s.Events) == 0 {
			return nil
		}
		return s.Events[rapid.IntRange(0, len(s.Events)-1).Draw(rt, "event")]
	}
	what := rapid.SampledFrom([]string{"nothing", "ClientStatus", "ClientDescription", "Deployment presence", "Deployment health",
		"Deployment time, other location", "Network", "Network presence", "task added", "task removed", "State", "Failed", "Restarts",
		"LastRestart", "StartedAt, other location", "FinishedAt", "Paused", "event added", "event Type", "event Time",
		"event Message", "event DisplayMessage", "event Details", "event Details nil vs empty", "event RestartReason",
		"event FailsTask"}).Draw(rt, "perturb")
	switch what {
	case "ClientStatus":
		u.ClientStatus = rapid.SampledFrom([]string{"pending", "running", "complete", "failed"}).Draw(rt, "status")
	case "ClientDescription":
		u.ClientDescription += "!"
	case "Deployment presence":
		if u.DeploymentStatus == nil {
			u.DeploymentStatus = &structs.AllocDeploymentStatus{}
		} else {
			u.DeploymentStatus = nil
		}
	case "Deployment health":
		if d := u.DeploymentStatus; d != nil {
			switch {
			case d.Healthy == nil:
				d.Healthy = new(false)
			case *d.Healthy:
				d.Healthy = nil
			default:
				d.Healthy = new(true)
			}
		}
	case "Deployment time, other location":
		if d := u.DeploymentStatus; d != nil {
			d.Timestamp = d.Timestamp.In(naiveElsewhere)
		}
	case "Network":
		if n := u.NetworkStatus; n != nil {
			n.Address = "10.0.0.2"
		}
	case "Network presence":
		if u.NetworkStatus == nil {
			u.NetworkStatus = &structs.AllocNetworkStatus{}
		} else {
			u.NetworkStatus = nil
		}
	case "task added":
		if u.TaskStates == nil {
			u.TaskStates = map[string]*structs.TaskState{}
		}
		u.TaskStates["zz"] = structs.NewTaskState()
	case "task removed":
		if len(names) > 0 {
			delete(u.TaskStates, rapid.SampledFrom(names).Draw(rt, "removed"))
		}
	case "State":
		if s := anyTask(); s != nil {
			s.State = map[string]string{"pending": "running", "running": "dead", "dead": "pending"}[s.State]
		}
	case "Failed":
		if s := anyTask(); s != nil {
			s.Failed = !s.Failed
		}
	case "Restarts":
		if s := anyTask(); s != nil {
			s.Restarts++
		}
	case "LastRestart":
		if s := anyTask(); s != nil {
			s.LastRestart = naiveT0.Add(time.Hour)
		}
	case "StartedAt, other location":
		if s := anyTask(); s != nil {
			s.StartedAt = s.StartedAt.In(naiveElsewhere)
		}
	case "FinishedAt":
		if s := anyTask(); s != nil {
			s.FinishedAt = naiveT0.Add(2 * time.Hour)
		}
	case "Paused":
		if s := anyTask(); s != nil {
			s.Paused = "force_pause"
		}
	case "event added":
		if s := anyTask(); s != nil {
			s.Events = append(s.Events, &structs.TaskEvent{Type: "Killing", Time: naiveT0.Add(time.Hour).UnixNano()})
		}
	case "event Type":
		if e := anyEvent(); e != nil {
			e.Type = "Killed"
		}
	case "event Time":
		if e := anyEvent(); e != nil {
			e.Time++
		}
	case "event Message":
		if e := anyEvent(); e != nil {
			e.Message += "!"
		}
	case "event DisplayMessage":
		if e := anyEvent(); e != nil {
			e.DisplayMessage += "!"
		}
	case "event Details":
		if e := anyEvent(); e != nil {
			e.Details = map[string]string{"exit_code": "1"}
		}
	case "event Details nil vs empty":
		if e := anyEvent(); e != nil && len(e.Details) == 0 {
			if e.Details == nil {
				e.Details = map[string]string{}
			} else {
				e.Details = nil
			}
		}
	case "event RestartReason": // not part of DATA-6 equality
		if e := anyEvent(); e != nil {
			e.RestartReason = "changed"
		}
	case "event FailsTask": // not part of DATA-6 equality
		if e := anyEvent(); e != nil {
			e.FailsTask = !e.FailsTask
		}
	}
	return u, what
}

// TestNaive_SYNC2_Priority compares UpdatePriority with the naive SYNC-2
// on an acknowledged state and an update that differs from it in one
// generated way (or not at all), and on no acknowledged state.
func TestNaive_SYNC2_Priority(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		acked := &structs.AllocState{
			ClientStatus:      rapid.SampledFrom([]string{"pending", "running", "complete", "failed"}).Draw(rt, "ackedStatus"),
			ClientDescription: rapid.SampledFrom([]string{"", "Tasks are running"}).Draw(rt, "ackedDesc"),
		}
		if rapid.Bool().Draw(rt, "deploy") {
			acked.DeploymentStatus = &structs.AllocDeploymentStatus{Timestamp: naiveT0, ModifyIndex: 7}
			if rapid.Bool().Draw(rt, "healthy") {
				acked.DeploymentStatus.Healthy = new(rapid.Bool().Draw(rt, "healthyValue"))
			}
		}
		if rapid.Bool().Draw(rt, "network") {
			acked.NetworkStatus = &structs.AllocNetworkStatus{InterfaceName: "eth0", Address: "10.0.0.1"}
		}
		if n := rapid.IntRange(-1, 3).Draw(rt, "tasks"); n >= 0 {
			acked.TaskStates = map[string]*structs.TaskState{}
			for i := range n {
				acked.TaskStates[fmt.Sprintf("t%d", i)] = naiveState(rt, fmt.Sprintf("t%d", i))
			}
		}
		u, what := naivePerturb(rt, acked)
		if rapid.IntRange(0, 9).Draw(rt, "noAck") == 0 {
			acked, what = nil, what+", nothing acknowledged"
		}
		got, want := UpdatePriority(u, acked), Priority(naivePriority(u, acked))
		if got != want {
			rt.Fatalf("SYNC-2 UpdatePriority after changing %s:\n model: %v\n naive: %v\nupdate: %+v\nacked: %+v", what, got, want, u, acked)
		}
	})
}

// TestNaive_SYNC2_Vectors pins SYNC-2's list with one vector per line of
// the SPEC, on model and naive alike.
func TestNaive_SYNC2_Vectors(t *testing.T) {
	acked := &structs.AllocState{ClientStatus: "running", ClientDescription: "Tasks are running",
		TaskStates: map[string]*structs.TaskState{"web": {State: "running", StartedAt: naiveT0}}}
	with := func(f func(u *structs.Allocation)) *structs.Allocation {
		c := acked.Copy()
		u := &structs.Allocation{ID: "a1", ClientStatus: c.ClientStatus, ClientDescription: c.ClientDescription, TaskStates: c.TaskStates}
		f(u)
		return u
	}
	cases := []struct {
		name  string
		u     *structs.Allocation
		acked *structs.AllocState
		want  Priority
	}{
		{"none acknowledged, failed → Urgent", with(func(u *structs.Allocation) { u.ClientStatus = "failed" }), nil, Urgent},
		{"none acknowledged, running → Typical", with(func(*structs.Allocation) {}), nil, Typical},
		{"ClientStatus differs → Urgent", with(func(u *structs.Allocation) { u.ClientStatus = "complete" }), acked, Urgent},
		{"status and tasks differ → Urgent", with(func(u *structs.Allocation) {
			u.ClientStatus = "failed"
			u.TaskStates["web"] = &structs.TaskState{State: "dead", Failed: true}
		}), acked, Urgent},
		{"ClientDescription differs → Typical", with(func(u *structs.Allocation) { u.ClientDescription = "x" }), acked, Typical},
		{"DeploymentStatus differs → Typical", with(func(u *structs.Allocation) { u.DeploymentStatus = &structs.AllocDeploymentStatus{Canary: true} }), acked, Typical},
		{"NetworkStatus differs → Typical", with(func(u *structs.Allocation) { u.NetworkStatus = &structs.AllocNetworkStatus{Address: "10.0.0.1"} }), acked, Typical},
		{"Paused differs → Typical (DATA-6 adds it)", with(func(u *structs.Allocation) { u.TaskStates["web"].Paused = "force_pause" }), acked, Typical},
		{"equal → None", with(func(*structs.Allocation) {}), acked, None},
	}
	for _, c := range cases {
		got, nv := UpdatePriority(c.u, c.acked), Priority(naivePriority(c.u, c.acked))
		if got != c.want || nv != c.want {
			t.Errorf("%s:\n model: %v\n naive: %v\n  want: %v", c.name, got, nv, c.want)
		}
	}
}

// naiveValidate is SYNC-4's "Checks in order".
func naiveValidate(r UpdateAllocRequest) string {
	switch {
	case r.Allocs == 0:
		return "must update at least one allocation"
	case r.NodeID == "":
		return "missing node ID"
	case !r.NodeFound:
		return fmt.Sprintf("node %s not found", r.NodeID)
	case r.NodeStatus == "down" || r.NodeStatus == "disconnected":
		return fmt.Sprintf("node %s is not allowed to update allocs while in status %s", r.NodeID, r.NodeStatus)
	case r.EvalsSet:
		return "evals field must not be set"
	}
	return ""
}

// TestNaive_SYNC4_CheckOrder compares ValidateUpdateAlloc with the naive
// SYNC-4 on every combination of failures. Which statuses refuse updates
// SPEC leaves open ("<status>"); the naive code says down and
// disconnected, the statuses of an unresponsive node.
func TestNaive_SYNC4_CheckOrder(t *testing.T) {
	for _, allocs := range []int{0, 2} {
		for _, node := range []string{"", "n1"} {
			for _, found := range []bool{false, true} {
				for _, status := range []string{"initializing", "ready", "down", "disconnected"} {
					for _, evals := range []bool{false, true} {
						r := UpdateAllocRequest{Allocs: allocs, NodeID: node, NodeFound: found, NodeStatus: status, EvalsSet: evals}
						got := ""
						if err := ValidateUpdateAlloc(r); err != nil {
							got = err.Error()
						}
						if want := naiveValidate(r); got != want {
							t.Errorf("SYNC-4 ValidateUpdateAlloc(%+v):\n model: %q\n naive: %q", r, got, want)
						}
					}
				}
			}
		}
	}
}

// naiveRetryDelay is SYNC-3's "next tick after 5 s + uniform[0, 5 s)"
// for the injected draw u in [0, 1): whole nanoseconds, truncated, and
// never the excluded 5 s itself (u·5e9 rounds up to it just below 1).
func naiveRetryDelay(u float64) time.Duration {
	jitter := time.Duration(u * float64(5*time.Second))
	if jitter >= 5*time.Second {
		jitter = 5*time.Second - 1
	}
	return 5*time.Second + jitter
}

// TestNaive_SYNC3_RetryDelay compares RetryDelay with the naive SYNC-3
// backoff for draws in [0, 1), and pins its ends.
func TestNaive_SYNC3_RetryDelay(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		u := rapid.Float64Range(0, 1).Draw(rt, "u")
		if u >= 1 {
			u = 0.9999999999
		}
		if got, want := RetryDelay(u), naiveRetryDelay(u); got != want {
			rt.Fatalf("SYNC-3 RetryDelay(%v):\n model: %v\n naive: %v", u, got, want)
		}
	})
	ends := map[float64]time.Duration{0: 5 * time.Second, 0.5: 7500 * time.Millisecond, math.Nextafter(1, 0): 10*time.Second - 1}
	for u, want := range ends {
		if got, nv := RetryDelay(u), naiveRetryDelay(u); got != want || nv != want {
			t.Errorf("RetryDelay(%v):\n model: %v\n naive: %v\n  want: %v", u, got, nv, want)
		}
	}
}
