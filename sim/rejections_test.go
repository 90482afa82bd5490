package sim

import (
	"fmt"
	"testing"

	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/shoenig/test/must"
)

// TestClientRejections: SYNC-4's answers to what the client got wrong
// count as rejections, through the transport's "<method>: " prefix; a
// node's status, a network fault and success do not.
func TestClientRejections(t *testing.T) {
	for _, err := range []string{
		"Node.UpdateAlloc: " + syncpolicy.MsgMissingNodeID, syncpolicy.MsgNoAllocs, syncpolicy.MsgEvalsSet,
		"Node.UpdateAlloc: " + fmt.Sprintf(syncpolicy.MsgNodeNotFound, "n1"),
	} {
		must.True(t, isClientRejection(err), must.Sprint(err))
	}
	for _, err := range []string{"", "rpc error: connection reset", fmt.Sprintf(syncpolicy.MsgNodeStatusBlocked, "n1", "down")} {
		must.False(t, isClientRejection(err), must.Sprint(err))
	}
}
