package studycmd

import "os"

// minWorkerMemoryLimit is the study worker's soft memory limit where the
// machine's memory is unknown, and the least it is set to anywhere.
const minWorkerMemoryLimit = 3 << 30

// workerMemoryLimit is the soft memory limit the worker sets with its
// GOGC of 400, and false when GOMEMLIMIT sets one already (the runtime
// applied it). It is half the machine's memory, at least
// minWorkerMemoryLimit: the runs of the default grid's largest
// configurations hold several GiB each (1000x50 about 4 GiB after 10
// virtual minutes), and under a limit below what the runs hold the
// collector runs without pause (as the fixed 3 GiB it replaces would
// for two 1000x50 runs at once), while no limit lets GOGC=400 grow the
// heap to five times what they hold.
func workerMemoryLimit() (int64, bool) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0, false
	}
	return max(totalMemory()/2, minWorkerMemoryLimit), true
}
