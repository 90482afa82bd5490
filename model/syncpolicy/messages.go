package syncpolicy

// Exact SYNC-4 messages of the server's Node.UpdateAlloc validation, in
// check order. The format verbs are substituted by ValidateUpdateAlloc.
const (
	MsgNoAllocs          = "must update at least one allocation"
	MsgMissingNodeID     = "missing node ID"
	MsgNodeNotFound      = "node %s not found"
	MsgNodeStatusBlocked = "node %s is not allowed to update allocs while in status %s"
	MsgEvalsSet          = "evals field must not be set"
)
