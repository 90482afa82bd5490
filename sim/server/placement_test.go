package server

import (
	"testing"
	"testing/synctest"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
)

// TestRegisterJobsOn: jobs go to the node named, not to the placement
// node (the first by ID); a new version replaces the allocs there; a bad
// job or node registers nothing.
func TestRegisterJobsOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		s, rec := newServer(t, clk, "")
		must.NoError(t, s.RegisterNode("node-2", syncpolicy.NodeStatusReady))
		allocs, err := s.RegisterJobsOn("node-2", job("a", 2), job("b", 1))
		must.NoError(t, err)
		must.SliceLen(t, 3, allocs)
		for _, a := range allocs {
			must.Eq(t, "node-2", a.NodeID)
		}
		must.SliceContainsAll(t, []string{allocs[0].ID, allocs[1].ID, allocs[2].ID}, s.NodeAllocIDs("node-2"))
		must.SliceEmpty(t, s.NodeAllocIDs(nodeID))
		must.Eq(t, "a", allocs[0].JobID)
		must.Eq(t, "b", allocs[2].JobID)

		v2 := job("a", 2)
		v2.Meta = map[string]string{"version": "2"}
		next, err := s.RegisterJobsOn("node-2", v2)
		must.NoError(t, err)
		must.SliceLen(t, 2, next)
		for _, a := range allocs[:2] {
			must.Eq(t, structs.AllocDesiredStatusStop, s.Alloc(a.ID).DesiredStatus)
		}
		must.Eq(t, "node-2", next[0].NodeID)
		must.Eq(t, 1, s.JobRecord("a").Version)

		before := s.Index()
		_, err = s.RegisterJobsOn("node-2", job("c", 1), &structs.Job{ID: "bad"})
		must.ErrorContains(t, err, `register job "bad"`)
		_, err = s.RegisterJobsOn("node-9", job("c", 1))
		must.ErrorContains(t, err, "node node-9 not found")
		must.NoError(t, s.SetNodeStatus("node-2", syncpolicy.NodeStatusDown))
		_, err = s.RegisterJobsOn("node-2", job("c", 1))
		must.ErrorContains(t, err, "node node-2 is down")
		must.Eq(t, before, s.Index())
		must.Nil(t, s.Job("c"))
		must.Positive(t, rec.Len())
	})
}
