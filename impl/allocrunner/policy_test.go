package allocrunner

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
)

// The policies decide where model/ says: each is consulted, and the
// zero Policies is model/'s (checked by every other test here).

func TestPolicySupersedes(t *testing.T) {
	always := func(_, _ *structs.Allocation) bool { return true }
	for _, supersedes := range []func(_, _ *structs.Allocation) bool{nil, always} {
		q := newUpdateQueue(Policies{Supersedes: supersedes}.withDefaults().Supersedes)
		must.True(t, q.push(&structs.Allocation{AllocModifyIndex: 5}))
		must.Eq(t, supersedes != nil, q.push(&structs.Allocation{AllocModifyIndex: 3}))
		want := uint64(5) // AR-10: the lower index is dropped
		if supersedes != nil {
			want = 3
		}
		must.Eq(t, want, q.pop().AllocModifyIndex)
	}
}

func TestPolicyClientStatus(t *testing.T) {
	states := map[string]*structs.TaskState{
		"a": {State: structs.TaskStateDead, Failed: true},
		"b": {State: structs.TaskStateRunning},
	}
	running := func(map[string]*structs.TaskState) (string, string) {
		return structs.AllocClientStatusRunning, status.DescriptionRunning
	}
	for _, p := range []Policies{{}, {ClientStatus: running}} {
		ar := &allocRunner{alloc: &structs.Allocation{}, finishedAt: map[string]time.Time{},
			clock: vclock.New(t0), policy: p.withDefaults()}
		want := structs.AllocClientStatusFailed // AR-8: failed over running
		if p.ClientStatus != nil {
			want = structs.AllocClientStatusRunning
		}
		must.Eq(t, want, ar.clientState(states).ClientStatus)
	}
}

func TestPolicyKillOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, testAlloc(hookTask("side", structs.TaskLifecycleHookPrestart, true),
			leaderTask("lead"), mainTask("m")))
		h.setup = func(tr *fakeTR) { tr.killDelay = time.Second }
		ar := h.build()
		ar.policy.KillOrder = func(tasks []*structs.Task) [][]string {
			o := status.KillOrder(tasks)
			return [][]string{o.Sidecars, o.Main, o.Leader}
		}
		go ar.Run()
		synctest.Wait()
		ar.Destroy()
		h.advance(5 * time.Second)
		h.waitClosed(ar.WaitCh(), "WaitCh")
		var kills []string
		for _, c := range h.log.get() {
			if c == "kill:lead" || c == "kill:m" || c == "kill:side" {
				kills = append(kills, c)
			}
		}
		must.Eq(t, []string{"kill:side", "kill:m", "kill:lead"}, kills)
		h.waitClosed(ar.DestroyCh(), "DestroyCh")
	})
}
