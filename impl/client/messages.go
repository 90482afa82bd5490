package client

// Messages of this package, in one place so that tests compare them
// verbatim. The API-7 ones are SPEC text.
const (
	// fmtUnknownAlloc is API-7's client-side lookup failure.
	fmtUnknownAlloc = "Unknown allocation \"%s\""
	// fmtSignalTask aggregates one task's failure of a signal-all (API-6).
	fmtSignalTask = "Failed to signal task: %s, err: %w"

	// fmtPlacementFailed is the ClientDescription of an alloc whose runner
	// could not be built (AR-3, SYNC-1).
	fmtPlacementFailed = "failed to build alloc runner: %v"

	fmtUnknownMethod = "unknown client RPC method %q"
	fmtBadArgs       = "%s: args are %T, want *%s"
	fmtBadReply      = "%s: reply is %T, want non-nil *%s"

	msgNilOptions       = "client options are nil"
	msgNilNode          = "client options: node config is nil"
	msgNilClock         = "client options: clock is nil"
	msgNilRand          = "client options: rand source is nil"
	msgNilStateDB       = "client options: state DB is nil"
	msgNilRPCClient     = "client options: RPC client is nil"
	msgNilRunnerFactory = "client options: alloc runner factory is nil (reference.Factory pairs this client with the reference alloc runner)"
	msgNilRunner        = "factory returned no runner"
	msgAlreadyStart     = "client already started"
	msgShutDown         = "client is shut down"
	fmtRestoreAllocs    = "restore allocs: %w"
)
