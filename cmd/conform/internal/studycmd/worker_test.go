package studycmd

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

var (
	jobFile  = flag.String(jobFlag, "", "run the study job in `FILE` (conform study sync's worker)")
	parallel = flag.Int(parallelFlag, 1, "the worker's runs at once")
)

// TestStudyWorker is conform study sync's worker (exec.go): it runs the
// job file's runs, each in a bubble and a subtest of its own, -study.parallel
// at once, started in the job's order (the costliest first, so the last
// ones end together), and prints one result line per run on stdout as it
// finishes. Without -study.job it is skipped.
func TestStudyWorker(t *testing.T) {
	if *jobFile == "" {
		t.Skip("conform study sync's worker: runs only with -" + jobFlag + " FILE")
	}
	// The runs allocate much short-lived memory: a larger heap target
	// takes a third off the collector's CPU, and a soft limit keeps the
	// heap within the machine (workerMemoryLimit).
	debug.SetGCPercent(400)
	if limit, ok := workerMemoryLimit(); ok {
		debug.SetMemoryLimit(limit)
	}
	b, err := os.ReadFile(*jobFile)
	if err != nil {
		t.Fatal(err)
	}
	var job workerJob
	if err := json.Unmarshal(b, &job); err != nil {
		t.Fatalf("job %s: %v", *jobFile, err)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, max(*parallel, 1))
	for i, spec := range job.Runs {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				var s RunSummary
				start := time.Now()
				synctest.Test(t, func(*testing.T) { s, _ = RunOne(spec) }) // a run's error is in s.Err
				s.Wall = time.Since(start)
				line, err := resultLine(i, s)
				if err != nil {
					t.Fatal(err)
				}
				mu.Lock()
				defer mu.Unlock()
				fmt.Println(line)
			})
		})
	}
	wg.Wait()
}
