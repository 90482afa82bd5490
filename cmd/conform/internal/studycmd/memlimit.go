package studycmd

import "os"

// Memory limits of the study's worker process (worker_test.go).
const (
	// minWorkerMemoryLimit is the soft limit where the machine's memory
	// is unknown, and the least it is set to anywhere.
	minWorkerMemoryLimit = 3 << 30
)

// workerMemoryLimit is the soft memory limit the worker sets with its
// GOGC of 400, and false when GOMEMLIMIT sets one already (the runtime
// applied it). It is half the machine's memory, at least
// minWorkerMemoryLimit: the runs of the default grid's largest
// configurations hold several GiB each (1000x50 about 4 GiB after 10
// virtual minutes), and a limit under what the runs hold makes the
// collector run without pause (a fixed 3 GiB did so for two 1000x50
// runs at once), while none lets GOGC=400 grow the heap to five times
// what they hold.
func workerMemoryLimit() (int64, bool) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0, false
	}
	return max(totalMemory()/2, minWorkerMemoryLimit), true
}
