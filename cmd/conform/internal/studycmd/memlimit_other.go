//go:build !linux

package studycmd

// totalMemory is the machine's memory in bytes, 0 if unknown: unknown
// here, so the worker's limit is minWorkerMemoryLimit.
func totalMemory() int64 { return 0 }
