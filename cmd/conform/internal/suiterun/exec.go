package suiterun

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/allocsim/allocsim/cmd/conform/internal/runners"
	"github.com/allocsim/allocsim/reports"
)

// testTimeout bounds one runner's test process: the suite's budget and
// the simulator's stall watchdog end it long before.
const testTimeout = "60m"

// args are the test binary's arguments for target t.
func (p Plan) args(b binary, t Target) []string {
	args := []string{"-test.v=test2json", "-test.count=1", "-test.timeout=" + testTimeout,
		"-test.run=^" + b.test + "$",
		"-allocsim.artifacts=" + filepath.Join(p.ArtifactDir, Slug(t.Name))}
	if t.Builtin {
		args = append(args, "-conform.runner="+t.Name)
	}
	if t.Profile != "" {
		args = append(args, "-conform.profile="+t.Profile)
	}
	if p.Checks > 0 {
		args = append(args, fmt.Sprintf("-allocsim.checks=%d", p.Checks))
	}
	if p.Seed != 0 {
		args = append(args, fmt.Sprintf("-allocsim.seed=%d", p.Seed))
	}
	if p.SeedsTo > 0 {
		args = append(args, fmt.Sprintf("-allocsim.seeds=%d..%d", p.SeedsFrom, p.SeedsTo))
	}
	if p.Budget > 0 {
		args = append(args, "-allocsim.budget="+p.Budget.String())
	}
	if len(p.Properties) > 0 {
		args = append(args, "-allocsim.property="+strings.Join(p.Properties, ","))
	}
	if len(t.Specs) > 0 {
		args = append(args, "-allocsim.specs="+strings.Join(t.Specs, ","))
	}
	if p.Shards > 0 {
		args = append(args, fmt.Sprintf("-allocsim.shard=%d/%d", p.Shard, p.Shards))
	}
	return args
}

// check runs target t's test binary through test2json and reads its
// results; emit is called when the suite says how many properties it
// runs and per finished property.
func (p Plan) check(ctx context.Context, b binary, t Target, emit func(Event)) (reports.Runner, error) {
	r := reports.Runner{Name: t.Name, Profile: t.Profile, ExpectFail: t.ExpectFail}
	cmd := exec.CommandContext(ctx, p.Go, append([]string{"tool", "test2json", "-t", "-p", b.importPath, b.path}, p.args(b, t)...)...)
	cmd.Dir = b.dir
	cmd.Env = os.Environ()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return r, fmt.Errorf("runner %s: %w", t.Name, err)
	}
	if err := cmd.Start(); err != nil {
		return r, fmt.Errorf("runner %s: start its test: %w", t.Name, err)
	}
	var parser reports.TestParser
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		done := parser.Line(sc.Bytes())
		if n := parser.Announced(); n > 0 {
			emit(Event{Kind: KindRunnerPlanned, Total: n})
		}
		if done != nil {
			emit(Event{Kind: KindProperty, Property: *done})
		}
	}
	scanErr := sc.Err()
	waitErr := cmd.Wait()
	if ctx.Err() != nil {
		return r, fmt.Errorf("runner %s: %w", t.Name, ctx.Err())
	}
	if scanErr != nil {
		return r, fmt.Errorf("runner %s: read its test's output: %w", t.Name, scanErr)
	}
	out := parser.Output()
	if len(out.Runs) == 0 {
		return r, fmt.Errorf("runner %s: the suite reported no property (%v)%s", t.Name, waitErr, tail(out.Output, stderr.String()))
	}
	run := out.Runs[0]
	r.Properties = run.Properties
	if r.Profile == "" {
		r.Profile = runners.ProfileFull
	}
	// A property that never ended: the test binary died in one of its
	// checks. A panic there (on a goroutine of the runner's own, which
	// no bubble can recover) fails the property at the check's seed;
	// anything else (a timeout, a kill) is an error. Both carry what the
	// binary printed.
	for i := range r.Properties {
		pr := &r.Properties[i]
		died := pr.Status == "" || pr.Status == reports.Fail && pr.Violation == ""
		if !died {
			continue
		}
		lines := append(strings.Split(pr.Message, "\n"), out.Output...)
		printed, panicLine := tail(lines, stderr.String()), firstPanic(lines, stderr.String())
		pr.Status = reports.Error
		pr.Message = fmt.Sprintf("the test binary ended during check %d (seed %d) of this property (%v)%s", pr.Check, pr.Seed, waitErr, printed)
		if panicLine != "" && pr.Seed != 0 {
			pr.Status = reports.Fail
			pr.Violation = "the runner panicked and ended the test binary: " + panicLine
		}
	}
	if waitErr != nil && r.Conforms() {
		return r, fmt.Errorf("runner %s: its test failed (%v) but no property did%s", t.Name, waitErr, tail(out.Output, stderr.String()))
	}
	return r, nil
}

// tail is the last lines a test printed outside properties, for errors.
func tail(output []string, stderr string) string {
	lines := append(append([]string{}, output...), strings.Split(strings.TrimSpace(stderr), "\n")...)
	var keep []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			keep = append(keep, l)
		}
	}
	if len(keep) > 30 {
		keep = keep[len(keep)-30:]
	}
	if len(keep) == 0 {
		return ""
	}
	return ":\n" + strings.Join(keep, "\n")
}

// firstPanic is the first "panic: ..." line the binary printed.
func firstPanic(output []string, stderr string) string {
	for _, l := range append(append([]string{}, output...), strings.Split(stderr, "\n")...) {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "panic: ") {
			return l
		}
	}
	return ""
}
