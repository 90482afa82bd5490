package studycmd

import (
	"os"
	"runtime"
	"testing"
)

// TestWorkerMemoryLimit: half the machine's memory, at least 3 GiB, and
// none of the worker's own when GOMEMLIMIT sets one.
func TestWorkerMemoryLimit(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "5GiB")
	if _, ok := workerMemoryLimit(); ok {
		t.Errorf("GOMEMLIMIT set: workerMemoryLimit() sets a limit, want the environment's kept")
	}
	os.Unsetenv("GOMEMLIMIT") // t.Setenv restores it
	limit, ok := workerMemoryLimit()
	if !ok || limit < minWorkerMemoryLimit {
		t.Fatalf("workerMemoryLimit() = %d, %v; want at least %d, true", limit, ok, minWorkerMemoryLimit)
	}
	total := totalMemory()
	if runtime.GOOS == "linux" && total <= 0 {
		t.Fatalf("totalMemory() = %d on linux, want the machine's", total)
	}
	if want := max(total/2, minWorkerMemoryLimit); limit != want {
		t.Errorf("workerMemoryLimit() = %d, want %d (half of %d)", limit, want, total)
	}
}
