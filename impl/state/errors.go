package state

import "errors"

// Errors of the state DB. Tests compare them with errors.Is; the messages
// are fixed here and nowhere else.
var (
	// ErrClosed is returned by every method of a closed (or reopened) DB.
	ErrClosed = errors.New("state db is closed")
	// ErrCorrupt marks a stored value that cannot be decoded into its type,
	// or an alloc entry that is null or names another alloc.
	ErrCorrupt = errors.New("corrupt state db entry")
	// ErrNoAllocEntry marks an alloc bucket without an `alloc` key (for
	// example one recreated by a task write after the alloc was deleted).
	ErrNoAllocEntry = errors.New("alloc bucket has no alloc entry")
	// ErrSchemaTooNew refuses a bbolt file written by a newer schema.
	ErrSchemaTooNew = errors.New("state db schema version is newer than supported")
	// ErrBadSchema refuses a bbolt file whose schema version is unreadable or
	// older than any known one.
	ErrBadSchema = errors.New("state db schema version is invalid")
	// ErrInvalidArgument marks an empty alloc ID, task name or key, or a nil
	// allocation.
	ErrInvalidArgument = errors.New("invalid state db argument")
)
