package suiterun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/allocsim/allocsim/reports"
)

// Run checks every target of plan and returns the results, in the
// targets' order. Its error is a failure of the tool (a test that does
// not build, a suite that reports nothing); a runner that fails
// properties is a result, not an error. Errors caused by the plan's input
// (a package that does not exist) satisfy IsUsage.
func Run(ctx context.Context, plan Plan) (reports.Run, error) {
	run := reports.Run{Suite: "allocsim"}
	if err := plan.validate(); err != nil {
		return run, usageErr{err}
	}
	if plan.Go == "" {
		plan.Go = "go"
	}
	if plan.WorkDir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return run, fmt.Errorf("working directory: %w", err)
		}
		plan.WorkDir = wd
	}
	plan.Parallel = max(plan.Parallel, 1)
	emit := func(Event) {}
	var mu sync.Mutex
	if plan.Progress != nil {
		emit = func(e Event) { mu.Lock(); defer mu.Unlock(); plan.Progress(e) }
	}
	tmp, err := os.MkdirTemp("", "conform-run-")
	if err != nil {
		return run, fmt.Errorf("temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := os.MkdirAll(plan.ArtifactDir, 0o755); err != nil {
		return run, fmt.Errorf("artifact directory: %w", err)
	}

	emit(Event{Kind: KindBuild})
	bins, err := plan.build(ctx, tmp)
	if err != nil {
		return run, err
	}
	for i, b := range bins {
		if plan.Targets[i].Name == "" {
			plan.Targets[i].Name = b.runner
		}
	}

	results := make([]reports.Runner, len(plan.Targets))
	errs := make([]error, len(plan.Targets))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(plan.Parallel, len(plan.Targets)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				t := plan.Targets[i]
				emit(Event{Runner: t.Name, Index: i, Kind: KindRunnerStart})
				results[i], errs[i] = plan.checkSplit(ctx, bins[i], t, func(e Event) {
					e.Runner, e.Index = t.Name, i
					emit(e)
				})
				emit(Event{Runner: t.Name, Index: i, Kind: KindRunnerDone, Result: results[i]})
			}
		}()
	}
	for i := range plan.Targets {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	run.Runners = results
	if err := errors.Join(errs...); err != nil {
		return run, err
	}
	return run, ctx.Err()
}

// build returns each target's test binary, in order: from plan's
// Binaries, or built into dir.
func (p Plan) build(ctx context.Context, dir string) ([]binary, error) {
	cache := p.Binaries
	if cache == nil {
		cache = &Binaries{dir: dir, pkgs: map[string]binary{}}
	}
	out := make([]binary, len(p.Targets))
	for i, t := range p.Targets {
		b, err := cache.get(ctx, p, t)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// IsUsage reports whether err was caused by the plan's input.
func IsUsage(err error) bool {
	var u usageErr
	return errors.As(err, &u)
}
