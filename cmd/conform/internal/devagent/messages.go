package devagent

// Messages of this package, in one place.
const (
	fmtBadProfile      = "unknown profile %q: want ent or ce"
	fmtNotPointers     = "rpc %s: args (%T) and reply (%T) must be non-nil pointers"
	fmtStopTimeout     = "allocs still running after %v: %s"
	fmtShutdownTimeout = "alloc runners still shutting down after %v: %s"
)
