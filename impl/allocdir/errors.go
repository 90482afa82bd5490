package allocdir

import "errors"

// Exact SPEC §6 error texts. Format verbs are substituted where the error
// is made; tests compare the results verbatim.
const (
	// MsgPathEscapes is ADIR-4's escape refusal.
	MsgPathEscapes = "Path escapes the alloc directory"
	// MsgEscapeCheckFailed prefixes a failing escape check (ADIR-4).
	MsgEscapeCheckFailed = "Failed to check if path escapes alloc directory: %w"
	// MsgSecretProhibited and MsgPrivateProhibited refuse ReadAt inside a
	// task's secrets or private dir; %s is the path as given (ADIR-4).
	MsgSecretProhibited  = "Reading secret file prohibited: %s"
	MsgPrivateProhibited = "Reading private file prohibited: %s"
	// MsgBuildFailed is an on-disk Build failure; %s is the directory that
	// could not be made (ADIR-3).
	MsgBuildFailed = "Failed to make the alloc directory %s: %w"
	// MsgMoveNotBuilt refuses Move into an alloc dir that is not built; %q
	// is its path (ADIR-3).
	MsgMoveNotBuilt = "unable to move to %q - alloc dir is not built"
	// MsgMoveData, MsgMoveTaskDir and MsgMoveTaskLocal are Move's failures
	// (ADIR-3).
	MsgMoveData      = "error moving data dir: %w"
	MsgMoveTaskDir   = "error creating task %q dir: %w"
	MsgMoveTaskLocal = "error moving task %q local dir: %w"
	// MsgSeek is ReadAt's seek failure (ADIR-5).
	MsgSeek = "can't seek to offset %d: %w"
	// MsgSnapshotFailed is Snapshot's walk failure; %s is the walked root
	// (ADIR-5).
	MsgSnapshotFailed = "failed to snapshot %s: %w"
)

// ErrPathEscapes is returned by every FS method for a path outside the
// alloc dir (ADIR-4). Its text is MsgPathEscapes.
var ErrPathEscapes = errors.New(MsgPathEscapes)
