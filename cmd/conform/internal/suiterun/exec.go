package suiterun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/allocsim/allocsim/cmd/conform/internal/runners"
	"github.com/allocsim/allocsim/reports"
)

// testTimeout bounds one runner's test process: the suite's budget and
// the simulator's stall watchdog end it long before.
const testTimeout = "60m"

// suiteGOGC is the garbage collector's GOGC the test processes run with
// when conform's environment does not set GOGC. A check allocates a few
// MB and keeps next to nothing once it ends, so at Go's default of 100
// the heap goal stays at its 4 MB floor and the collector ran more than
// once per check: a third of the process's CPU. Measured on 2 cores,
// TestReferenceConforms with 20 checks a property: user+sys CPU 14.4 s
// at 100, 10.2 s at 400, 8.9 s at 800, for a peak RSS of 54, 92 and
// 169 MB. With GOMAXPROCS 1 (below) the larger heap no longer pays: a
// heap cycled through more memory touches colder pages, and 400 took
// 6.8 s against 7.2 s at 800 (30 checks a property, medians of 3), for
// 114 MB instead of 198.
const suiteGOGC = "400"

// suiteGOMAXPROCS is the test processes' GOMAXPROCS when conform's
// environment does not set it. A check runs in a synctest bubble whose
// goroutines take turns: one runs at a time, so a second P only adds
// wake-ups, spinning threads and futex calls (a tenth of the CPU
// profile), and conform runs as many test processes as it has CPUs
// (Plan.Parallel, split.go) to use them. Measured on 2 cores,
// TestReferenceConforms with 20 checks a property: user+sys CPU 8.9 s
// at GOMAXPROCS 2, 6.5 s at 1.
const suiteGOMAXPROCS = "1"

// suiteMemProfileRate turns off the runtime's heap profile sampling in
// the test processes (GODEBUG memprofilerate) unless conform's GODEBUG
// sets it: nothing reads that profile, and taking a stack at every
// 512 KiB allocated was 0.8 % of a check's CPU.
const suiteMemProfileRate = "memprofilerate=0"

// suiteEnv is what the test processes' environment adds to conform's.
func suiteEnv() []string {
	var env []string
	switch debug, set := os.LookupEnv("GODEBUG"); {
	case !set || debug == "":
		env = append(env, "GODEBUG="+suiteMemProfileRate)
	case !strings.Contains(debug, "memprofilerate="):
		env = append(env, "GODEBUG="+debug+","+suiteMemProfileRate)
	}
	if _, set := os.LookupEnv("GOGC"); !set {
		env = append(env, "GOGC="+suiteGOGC)
	}
	if _, set := os.LookupEnv("GOMAXPROCS"); !set {
		env = append(env, "GOMAXPROCS="+suiteGOMAXPROCS)
	}
	return env
}

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
	if p.Rerun > 0 {
		args = append(args, fmt.Sprintf("-allocsim.rerun=%d", p.Rerun))
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
// runs and per finished property. A binary that dies in a property (a
// panic on a runner's goroutine, the stall watchdog's exit, a fatal
// error) fails that property with what it printed, and a new binary runs
// the properties it had not reached, so every property of the plan is
// accounted for (run, or not run with why).
func (p Plan) check(ctx context.Context, b binary, t Target, emit func(Event)) (reports.Runner, error) {
	r := reports.Runner{Name: t.Name, Profile: t.Profile, ExpectFail: t.ExpectFail}
	if r.Profile == "" {
		r.Profile = runners.ProfileFull
	}
	var plan []string
	done := map[string]bool{}
	run := p
	for attempt := 0; ; attempt++ {
		res, err := run.checkOnce(ctx, b, t, emit, attempt == 0)
		if err != nil {
			return r, err
		}
		if plan == nil {
			plan = res.plan
		}
		for _, pr := range res.props {
			if !done[pr.ID] {
				done[pr.ID] = true
				r.Properties = append(r.Properties, pr)
			}
		}
		var rest []string
		for _, id := range plan {
			if !done[id] {
				rest = append(rest, id)
			}
		}
		if !res.died || len(rest) == 0 || attempt >= len(plan) {
			if res.waitErr != nil && r.Conforms() && len(rest) == 0 {
				return r, fmt.Errorf("runner %s: its test failed (%v) but no property did%s", t.Name, res.waitErr, res.printed)
			}
			for _, id := range rest {
				r.Properties = append(r.Properties, reports.Property{ID: id, Status: reports.NotRun,
					Message: "not run: the test binary ended before it, and a new one did not reach it either"})
			}
			return r, nil
		}
		// The binary died in a property: a new one runs the rest.
		run.Properties, run.Shard, run.Shards = rest, 0, 0
	}
}

// attempt is what one test binary of a target reported.
type attempt struct {
	props   []reports.Property
	plan    []string
	died    bool   // the binary ended inside a property
	waitErr error  // how it exited
	printed string // its last lines outside properties, for errors
}

// checkOnce runs t's test binary once.
func (p Plan) checkOnce(ctx context.Context, b binary, t Target, emit func(Event), first bool) (attempt, error) {
	var a attempt
	var parser reports.TestParser
	bin := b.Binary
	bin.Env = suiteEnv()
	exit, err := bin.Run(ctx, p.args(b, t), func(line []byte) {
		done := parser.Line(line)
		if n := parser.Announced(); n > 0 && first {
			emit(Event{Kind: KindRunnerPlanned, Total: n})
		}
		if done != nil && !diedIn(*done) {
			emit(Event{Kind: KindProperty, Property: *done})
		}
	})
	a.waitErr = exit.Err
	if err != nil {
		return a, fmt.Errorf("runner %s: %w", t.Name, err)
	}
	out := parser.Output()
	a.printed = tail(out.Output)
	if len(out.Runs) == 0 {
		return a, fmt.Errorf("runner %s: the suite reported no property (%v)%s", t.Name, a.waitErr, a.printed)
	}
	run := out.Runs[0]
	a.props, a.plan = run.Properties, run.Plan
	for i := range a.props {
		pr := &a.props[i]
		if !diedIn(*pr) {
			continue
		}
		a.died = true
		diagnoseDeath(pr, append(strings.Split(pr.Message, "\n"), out.Output...), a.waitErr)
		emit(Event{Kind: KindProperty, Property: *pr})
	}
	return a, nil
}

// diedIn reports whether the binary ended inside property pr: it never
// ended, or test2json failed it without the suite's failure text (or
// with the stall watchdog's, which ends the process).
func diedIn(pr reports.Property) bool {
	return pr.Status == "" || pr.Status == reports.Fail && (pr.Violation == "" ||
		strings.HasPrefix(pr.Violation, "DET-3: ") || strings.HasPrefix(pr.Violation, suiteStall))
}

// diagnoseDeath turns a property the binary died in into its verdict.
// What ended the binary is the runner's fault when the binary said so:
// the stall watchdog's DET-3 diagnosis (a world that did not settle), a
// panic on a goroutine of the runner's, a fatal error of the runtime (a
// concurrent map write); the property then fails at the check's seed,
// with the binary's diagnosis, stacks included, as its message.
// Anything else (a kill, a timeout) is an error.
func diagnoseDeath(pr *reports.Property, output []string, waitErr error) {
	verdict := firstLine(output, "DET-3: ", suiteStall, "panic: ", "fatal error: ")
	printed := tail(output)
	pr.Status, pr.Violation = reports.Error, ""
	pr.Message = fmt.Sprintf("the test binary ended during check %d (seed %d) of this property (%v)%s", pr.Check, pr.Seed, waitErr, printed)
	if strings.HasPrefix(verdict, suiteStall) {
		// The suite's own work stalled: the tool's fault, not the runner's.
		pr.Message = diagnosis(output, suiteStall)
		return
	}
	if verdict == "" || pr.Seed == 0 {
		return
	}
	pr.Status = reports.Fail
	switch {
	case strings.HasPrefix(verdict, "DET-3: "):
		pr.Violation = verdict
		pr.Message = diagnosis(output, "DET-3: ")
	case strings.HasPrefix(verdict, "fatal error: "):
		pr.Violation = "the runner hit a fatal error of the Go runtime and ended the test binary: " + verdict
		pr.Message = diagnosis(output, "fatal error: ")
	default:
		pr.Violation = "the runner panicked and ended the test binary: " + verdict
	}
}

// diagnosis is what the binary printed from the first line starting with
// prefix on, at most diagnosisLines lines.
func diagnosis(output []string, prefix string) string {
	lines := append(append([]string{}, output...), "") // it ends with a newline
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), prefix) {
			lines = lines[i:]
			if len(lines) > diagnosisLines {
				lines = append(lines[:diagnosisLines], fmt.Sprintf("(%d more lines)", len(lines)-diagnosisLines))
			}
			return strings.Join(lines, "\n")
		}
	}
	return ""
}

// suiteStall begins the stall watchdog's diagnosis when the suite's own
// work, not the runner, kept the world from settling (sim.SuiteStall;
// suiterun does not link the simulator).
const suiteStall = "SUITE: the suite's own work did not finish"

// diagnosisLines bounds the diagnosis kept in a report.
const diagnosisLines = 400

// tail is the last lines a test printed outside properties, for errors.
func tail(output []string) string {
	var keep []string
	for _, l := range output {
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

// firstLine is the first line the binary printed that starts with one
// of prefixes.
func firstLine(output []string, prefixes ...string) string {
	for _, l := range output {
		l = strings.TrimSpace(l)
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				return l
			}
		}
	}
	return ""
}
