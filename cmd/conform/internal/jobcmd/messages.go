package jobcmd

// Messages of `conform job run` and `conform job stop`, in one place.
const (
	msgOneFile    = "job run takes exactly one argument, the jobspec file (HCL or JSON); got %d"
	msgBadTimeout = "invalid -timeout %v: must not be negative"
	msgNoJob      = "the jobspec holds no job"
	fmtRegistered = "Job %q registered: evaluation %s at index %d\n"
	fmtFewPlaced  = "Only %d of %d allocations were placed within %v.\n"
	msgNonePlaced = "No allocations placed."

	msgOneJobID      = "job stop takes exactly one argument, the job ID; got %d"
	msgEmptyJobID    = "the job ID is empty"
	fmtStopped       = "Job %q %s: evaluation %s\n"
	fmtStoppedNoEval = "Job %q %s (no evaluation)\n"
)
