package studycmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/allocsim/allocsim/internal/testbin"
)

// The study's work in its test binary (worker_test.go's TestStudyWorker),
// which internal/testbin builds once and runs.
const (
	// workerPackage is the package, relative to the allocsim module's
	// root, whose test binary runs the study.
	workerPackage = "./cmd/conform/internal/studycmd"
	// workerTest is the test that runs a job file's runs.
	workerTest = "TestStudyWorker"
	// jobFlag names the job file (JSON of workerJob); parallelFlag says
	// how many runs execute at once.
	jobFlag      = "study.job"
	parallelFlag = "study.parallel"
	// resultPrefix starts each result line the worker prints:
	// "<prefix><index> <RunSummary JSON>".
	resultPrefix = "study-result "
	// allocsimModule is the module whose source holds the worker.
	allocsimModule = "github.com/allocsim/allocsim"
)

// workerJob is the job file: the runs a worker executes.
type workerJob struct {
	Runs []RunSpec `json:"runs"`
}

// resultLine is the worker's line for run i's summary.
func resultLine(i int, s RunSummary) (string, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("encode the summary of run %d: %w", i, err)
	}
	return resultPrefix + strconv.Itoa(i) + " " + string(b), nil
}

// parseResult reads a result line; ok is false for other lines.
func parseResult(line string) (int, RunSummary, bool, error) {
	rest, ok := strings.CutPrefix(line, resultPrefix)
	if !ok {
		return 0, RunSummary{}, false, nil
	}
	is, js, _ := strings.Cut(rest, " ")
	i, err := strconv.Atoi(is)
	if err != nil {
		return 0, RunSummary{}, true, fmt.Errorf("result line %q: bad index: %w", clip(line), err)
	}
	var s RunSummary
	if err := json.Unmarshal([]byte(js), &s); err != nil {
		return 0, RunSummary{}, true, fmt.Errorf("result line %q: %w", clip(line), err)
	}
	return i, s, true, nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// binaryExecutor builds this package's test binary from the allocsim
// source and runs job there: one process, job.Parallel runs at once.
func binaryExecutor(ctx context.Context, job Job) ([]RunSummary, error) {
	src := job.AllocsimDir
	if src == "" {
		dir, err := testbin.ModuleDir(ctx, "", "", allocsimModule)
		if err != nil {
			return nil, errors.New("find the allocsim module (the study runs in a test binary built from its source): run conform inside the allocsim module or a module that requires it, or pass --allocsim DIR")
		}
		src = dir
	}
	pkgDir := filepath.Join(src, filepath.FromSlash(workerPackage))
	if _, err := os.Stat(pkgDir); err != nil {
		return nil, fmt.Errorf("allocsim source %s: no %s: %w", src, workerPackage, err)
	}
	tmp, err := os.MkdirTemp("", "conform-study-")
	if err != nil {
		return nil, fmt.Errorf("temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintf(job.Log, "study sync: building the study's test binary from %s\n", src)
	bin, err := testbin.Compile(ctx, testbin.Build{Dir: src, Pkg: workerPackage, Out: filepath.Join(tmp, "study.test")})
	if err != nil {
		return nil, fmt.Errorf("build the study's test binary: %w", err)
	}
	jobFile := filepath.Join(tmp, "job.json")
	b, err := json.Marshal(workerJob{Runs: job.Runs})
	if err != nil {
		return nil, fmt.Errorf("encode the job: %w", err)
	}
	if err := os.WriteFile(jobFile, b, 0o644); err != nil {
		return nil, fmt.Errorf("write the job: %w", err)
	}
	sums := make([]RunSummary, len(job.Runs))
	got := make([]bool, len(job.Runs))
	var errs []error
	var lines testbin.Lines
	var stray strings.Builder // what the binary printed besides results
	exit, err := bin.Run(ctx, []string{"-test.run=^" + workerTest + "$", "-test.count=1", "-test.timeout=0",
		"-" + parallelFlag + "=" + strconv.Itoa(max(job.Parallel, 1)), "-" + jobFlag + "=" + jobFile},
		func(event []byte) {
			for _, line := range lines.Event(event) {
				i, s, ok, err := parseResult(line)
				switch {
				case !ok:
					fmt.Fprintln(&stray, line)
				case err != nil:
					errs = append(errs, err)
				case i < 0 || i >= len(sums) || got[i]:
					errs = append(errs, fmt.Errorf("result line for run %d: unexpected", i))
				default:
					sums[i], got[i] = s, true
					if job.Done != nil {
						job.Done(i, s)
					}
				}
			}
		})
	stray.WriteString(lines.Rest())
	if err != nil {
		errs = append(errs, fmt.Errorf("run the study's test binary: %w", err))
	}
	if exit.Err != nil {
		errs = append(errs, fmt.Errorf("the study's test binary: %w\n%s", exit.Err, strings.TrimSpace(stray.String())))
	}
	for i, ok := range got {
		if !ok {
			errs = append(errs, fmt.Errorf("run %s reported nothing", job.Runs[i]))
			break
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return sums, nil
}
