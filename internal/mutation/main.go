package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes.
const (
	exitOK    = 0 // every selected mutant judged (whatever the score), or -list
	exitStop  = 1 // interrupted, or stopped on repeated errors: resume it
	exitUsage = 2 // bad flags, or the tool cannot run (the unmutated tree fails its judge)
)

const (
	defaultPackages = "./impl/allocrunner,./impl/taskrunner,./impl/client,./impl/hookstats,./impl/hookres"
	defaultTests    = "^(TestReferenceConforms|TestMinimalConformsToClientCommunication)$"
	// maxErrorsInARow stops a run whose judge keeps failing to build or
	// run: the tree is broken under it (a concurrent edit), not the mutants.
	maxErrorsInARow = 5
)

type options struct {
	sample, parallel, checks, estimate int
	seed                               uint64
	list, logs, rejudge, race          bool
	only, redo                         string
	timeout                            time.Duration
	report, results, resume, equiv     string
	gaps                               string
	pkgs, tests, suite, goCmd          string
	set                                map[string]bool // the flags given
}

func parseFlags(args []string, stderr io.Writer) (options, bool) {
	var o options
	fl := flag.NewFlagSet("mutation", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.IntVar(&o.sample, "sample", 0, "judge `N` mutants drawn with -seed (those that compile); 0: every mutant")
	fl.Uint64Var(&o.seed, "seed", 1, "the draw's `seed` (-sample)")
	fl.StringVar(&o.redo, "redo", "", "with -resume, judge again the mutants whose ID matches `regexp` even where a verdict would be reused (a verdict suspected to be a flake of the judge)")
	fl.StringVar(&o.only, "only", "", "judge only the mutants whose ID matches `regexp` (of every mutant generated, or of the -sample draw); the verdicts are printed, and the results and report are written only where -results and -report say")
	fl.BoolVar(&o.list, "list", false, "print the selected mutants (ID and diff) and exit, judging none")
	fl.IntVar(&o.checks, "checks", 0, "scenarios per property, -allocsim.checks (`N`; 0: the suite's default)")
	fl.DurationVar(&o.timeout, "timeout", 0, "kill a mutant's suite run after `D` real time: a TIMEOUT (0: 10 times the unmutated run, at least 1m)")
	fl.IntVar(&o.parallel, "parallel", 1, "mutants judged at once (`N`; go test itself uses every core)")
	fl.StringVar(&o.report, "report", "reports/mutation.md", "write the report to `FILE` (a default path is relative to the module's root)")
	fl.StringVar(&o.results, "results", "reports/latest/mutation.json", "keep the results so far in `FILE`, rewritten after each mutant")
	fl.StringVar(&o.resume, "resume", "", "continue the run whose results are in `FILE` (and keep them there): its verdicts are reused")
	fl.BoolVar(&o.rejudge, "rejudge", false, "with -resume, judge the run's survivors again (the suite may kill them now) and reuse the other verdicts")
	fl.StringVar(&o.equiv, "equivalent", "internal/mutation/equivalent.txt", "the equivalence arguments, `FILE` of lines \"ID argument\"")
	fl.StringVar(&o.gaps, "gaps", "internal/mutation/gaps.txt", "the open survivors, `FILE` of lines \"ID why no check reaches it yet\" (counted as survivors)")
	fl.StringVar(&o.pkgs, "pkgs", defaultPackages, "the packages to mutate, comma-separated `patterns`")
	fl.StringVar(&o.tests, "tests", defaultTests, "the suite's tests that judge, a -run `regexp`")
	fl.StringVar(&o.suite, "suite", "./properties", "the suite's `package`")
	fl.BoolVar(&o.race, "race", true, "judge a survivor whose change touches synchronization (a lock, a channel operation, a go or defer statement) again with go test -race: a data race the detector reports kills it")
	fl.BoolVar(&o.logs, "logs", false, "mutate logger calls (and ifs around them only) too")
	fl.IntVar(&o.estimate, "estimate", 300, "estimate the time of a run of `N` mutants in the report")
	fl.StringVar(&o.goCmd, "go", "go", "the go `command`")
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: go run ./internal/mutation [flags]\n\n"+
			"Mutation testing of the reference runner judged by the conformance suite alone:\n"+
			"mutants of -pkgs, each built into -suite with go test -overlay and run on -tests,\n"+
			"killed if the suite fails; the report goes to -report.\n\n")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return o, false
	}
	o.set = map[string]bool{}
	fl.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	if fl.NArg() > 0 || o.parallel < 1 || o.sample < 0 || o.checks < 0 || o.rejudge && o.resume == "" {
		fmt.Fprintln(stderr, "mutation: bad arguments (see -help)")
		return o, false
	}
	return o, true
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, ok := parseFlags(args, stderr)
	if !ok {
		return exitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "mutation: "+format+"\n", a...)
		return exitUsage
	}
	root, err := moduleRoot(o.goCmd)
	if err != nil {
		return fail("%v", err)
	}
	// A path given is the user's, relative to the working directory; a
	// default is relative to the module's root.
	abs := func(flagName, p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		if o.set[flagName] {
			if a, err := filepath.Abs(p); err == nil {
				return a
			}
		}
		return filepath.Join(root, p)
	}

	// The mutants, from the source as it is now.
	pkgs := strings.Split(o.pkgs, ",")
	targets, exports, err := loadTargets(o.goCmd, root, pkgs)
	if err != nil {
		return fail("%v", err)
	}
	var files []sourceFile
	for _, t := range targets {
		files = append(files, t.Files...)
	}
	ms, err := enumerate(files, mutateOptions{logs: o.logs})
	if err != nil {
		return fail("%v", err)
	}
	byName := map[string]sourceFile{}
	for _, f := range files {
		byName[f.Name] = f
	}
	chk := newChecker(targets, exports)
	for _, t := range targets {
		if len(t.Files) == 0 {
			continue
		}
		if ct := chk.targets[t.Files[0].Name]; ct != nil && ct.original != nil {
			fmt.Fprintf(stderr, "mutation: %s does not type-check as it stands (%v): its mutants go to the compiler unchecked\n", t.ImportPath, ct.original)
		}
	}
	valid := func(m Mutant) error {
		err := chk.Check(m.File, m.Apply(byName[m.File].Src))
		if errors.Is(err, errUnchecked) {
			return nil
		}
		return err
	}
	sel := selectMutants(ms, o.sample, o.seed, valid)
	if o.only != "" {
		re, err := regexp.Compile(o.only)
		if err != nil {
			return fail("-only: %v", err)
		}
		sel.Judged = slices.DeleteFunc(sel.Judged, func(i int) bool { return !re.MatchString(ms[i].ID()) })
		maps.DeleteFunc(sel.Invalid, func(i int, _ string) bool { return !re.MatchString(ms[i].ID()) })
		if len(sel.Judged) == 0 {
			return fail("-only %q matches no mutant that compiles", o.only)
		}
	}
	if o.list {
		for _, i := range sel.Judged {
			fmt.Fprintf(stdout, "%s@%s\t%s\n", ms[i].ID(), ms[i].Pin(), ms[i].Diff())
		}
		fmt.Fprintf(stderr, "mutation: %d mutants generated in %d files; %d selected, %d drawn that do not compile\n",
			len(ms), len(files), len(sel.Judged), len(sel.Invalid))
		return exitOK
	}

	ann, annPins, err := readAnnotations(abs("equivalent", o.equiv))
	if err != nil {
		return fail("%s: %v", o.equiv, err)
	}
	gaps, gapPins, err := readAnnotations(abs("gaps", o.gaps))
	if err != nil {
		return fail("%s: %v", o.gaps, err)
	}
	pins := make(map[string]string, len(ms))
	for _, m := range ms {
		pins[m.ID()] = m.Pin()
	}
	ann, revisit := ann.pinnedTo(annPins, pins, filepath.Base(o.equiv))
	gaps, gapRevisit := gaps.pinnedTo(gapPins, pins, filepath.Base(o.gaps))
	revisit = append(revisit, gapRevisit...)
	for id := range gaps {
		if _, ok := ann[id]; ok {
			return fail("%s: %s is also argued equivalent in %s: a survivor is one or the other", o.gaps, id, o.equiv)
		}
	}

	j := &judge{goCmd: o.goCmd, root: root, pkg: o.suite, tests: o.tests, checks: o.checks, buildTimeout: 15 * time.Minute}
	resultsPath := abs("results", o.results)
	if o.only != "" && !o.set["results"] && o.resume == "" {
		resultsPath = "" // -only: verdicts to the terminal alone
	}
	var prev *Run
	if o.resume != "" {
		resultsPath = abs("resume", o.resume)
		if prev, err = loadRun(resultsPath); err != nil {
			return fail("%v", err)
		}
	}
	reuse, err := reusable(prev, j.Key())
	if err != nil {
		return fail("%v", err)
	}

	work, err := os.MkdirTemp("", "allocsim-mutation-")
	if err != nil {
		return fail("%v", err)
	}
	defer os.RemoveAll(work)

	// The judge must pass the unmutated tree, or it judges nothing.
	fmt.Fprintf(stderr, "mutation: %d mutants generated in %d files; judging %d (%d drawn do not compile)\n",
		len(ms), len(files), len(sel.Judged), len(sel.Invalid))
	fmt.Fprintf(stderr, "mutation: baseline: %s on the unmutated tree\n", j.Describe())
	j.timeout = 30 * time.Minute
	base, err := j.Judge(ctx, work, "", "")
	if err != nil {
		return fail("baseline: %v", err)
	}
	if base.Status != Survived {
		return fail("the unmutated tree does not pass the judge (%s: %s %s): nothing can be judged", base.Status, strings.Join(base.By, "; "), base.Detail)
	}
	j.timeout = o.timeout
	if j.timeout == 0 {
		j.timeout = max(time.Minute, 10*base.Run).Round(time.Second)
	}
	// The suite's budget lies beyond the kill: a slowed mutant is a
	// TIMEOUT, never passed on the fewer checks a budget would allow.
	j.budget = 2 * j.timeout
	fmt.Fprintf(stderr, "mutation: baseline passed (build %.1fs, run %.1fs); each mutant's run is killed after %v\n",
		base.Build.Seconds(), base.Run.Seconds(), j.timeout)

	r := &Run{
		Date:      time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Commit:    gitOut(root, "rev-parse", "--short", "HEAD"),
		Dirty:     dirty(root, targets, o.suite),
		Command:   commandLine(args),
		Judge:     j.Describe(),
		Race:      o.race,
		JudgeKey:  j.Key(),
		Timeout:   j.timeout.String(),
		Files:     len(files),
		Generated: len(ms),
		Operators: map[string]int{},
		Seed:      o.seed,
		Baseline:  Baseline{Build: round1(base.Build), Run: round1(base.Run)},
	}
	for _, t := range targets {
		rel, err := filepath.Rel(root, t.Dir)
		if err != nil {
			rel = t.ImportPath
		}
		r.Packages = append(r.Packages, filepath.ToSlash(rel))
	}
	for _, m := range ms {
		r.Operators[baseOperator(m.Operator)]++
	}
	if o.sample > 0 && len(sel.Judged) == o.sample {
		r.Sample = o.sample
	}

	var redo *regexp.Regexp
	if o.redo != "" {
		if redo, err = regexp.Compile(o.redo); err != nil {
			return fail("-redo: %v", err)
		}
	}
	// Results in enumeration order: invalid ones from the type check,
	// reused verdicts, and slots for the rest.
	order := append([]int(nil), sel.Judged...)
	for i := range sel.Invalid {
		order = append(order, i)
	}
	sort.Ints(order)
	r.Results = make([]Result, len(order))
	var pending []int // indices into r.Results
	for k, i := range order {
		m := ms[i]
		res := Result{ID: m.ID(), Operator: m.Operator, Diff: m.Diff()}
		if msg, bad := sel.Invalid[i]; bad {
			res.Status, res.Detail = Invalid, "type check: "+collapse(msg)
		} else if old, ok := reuse[res.ID]; ok && old.Diff == res.Diff && !(o.rejudge && old.Status == Survived) && (redo == nil || !redo.MatchString(res.ID)) {
			res = old
		} else {
			res.Status = Pending
			pending = append(pending, k)
		}
		r.Results[k] = res
	}
	msOf := map[string]Mutant{}
	for _, i := range order {
		msOf[ms[i].ID()] = ms[i]
	}
	if reused := len(sel.Judged) - len(pending); reused > 0 {
		fmt.Fprintf(stderr, "mutation: %d verdicts reused from %s\n", reused, resultsPath)
	}
	if err := r.save(resultsPath); err != nil {
		return fail("%v", err)
	}

	var (
		mu      sync.Mutex
		done    int
		inARow  int
		stopped bool
		jobs    = make(chan int)
		wg      sync.WaitGroup
	)
	runCtx, stopRuns := context.WithCancel(ctx)
	defer stopRuns()
	for w := 0; w < o.parallel; w++ {
		dir := filepath.Join(work, fmt.Sprintf("w%d", w))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fail("%v", err)
		}
		wg.Go(func() {
			for k := range jobs {
				res := r.Results[k]
				m := msOf[res.ID]
				f := byName[m.File]
				v, err := judgeMutant(runCtx, j, dir, f, m)
				if err == nil && v.Status == Survived && o.race && touchesSync(m) {
					rj := *j
					rj.race, rj.timeout = true, 3*j.timeout
					if rv, rerr := judgeMutant(runCtx, &rj, dir, f, m); rerr == nil && (rv.Status == Killed || rv.Status == Timeout) {
						rv.Build, rv.Run = v.Build+rv.Build, v.Run+rv.Run
						rv.Detail = strings.TrimSpace("under -race: " + rv.Detail)
						v = rv
					} else if rerr != nil {
						err = rerr
					}
				}
				mu.Lock()
				if err == nil {
					res.Status, res.By, res.Detail = v.Status, v.By, v.Detail
					res.Build, res.Run = round1(v.Build), round1(v.Run)
					r.Results[k] = res
					done++
					if v.Status == Errored {
						inARow++
					} else {
						inARow = 0
					}
					fmt.Fprintf(stderr, "[%d/%d] %-8s %5.1fs  %s  %s\n", done, len(pending), v.Status, (v.Build + v.Run).Seconds(), res.ID, progressNote(res))
					if err := r.save(resultsPath); err != nil {
						fmt.Fprintf(stderr, "mutation: %v\n", err)
					}
					if inARow >= maxErrorsInARow && !stopped {
						stopped = true
						fmt.Fprintf(stderr, "mutation: %d errors in a row (last: %s): the tree is broken under the judge; stopping\n", inARow, res.Detail)
						stopRuns()
					}
				} else if !errors.Is(err, errInterrupted) {
					fmt.Fprintf(stderr, "mutation: %s: %v\n", res.ID, err)
				}
				mu.Unlock()
			}
		})
	}
feed:
	for _, k := range pending {
		select {
		case jobs <- k:
		case <-runCtx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()

	r.Complete = runCtx.Err() == nil
	if err := r.save(resultsPath); err != nil {
		return fail("%v", err)
	}
	generated := map[string]bool{}
	for _, m := range ms {
		generated[m.ID()] = true
	}
	if o.only != "" && !o.set["report"] {
		for _, res := range r.Results {
			fmt.Fprintf(stdout, "%s\t%s\t%s %s\n", res.ID, res.Status, strings.Join(res.By, "; "), res.Detail)
		}
		return exitOK
	}
	report := renderReport(reportInput{Run: r, Annotations: ann, Gaps: gaps, Revisit: revisit, Generated: generated, EstimateFor: o.estimate, Parallel: o.parallel})
	if err := os.MkdirAll(filepath.Dir(abs("report", o.report)), 0o755); err != nil {
		return fail("%v", err)
	}
	if err := os.WriteFile(abs("report", o.report), []byte(report), 0o644); err != nil {
		return fail("%v", err)
	}
	c := count(r.Results, ann)
	fmt.Fprintf(stdout, "mutation: %d judged: %d killed, %d timeout, %d survived (%d equivalent), %d invalid; score %s\n",
		c.judged(), c.killed, c.timeout, c.survived, c.equivalent, c.invalid, c.score())
	fmt.Fprintf(stdout, "mutation: report %s, results %s\n", o.report, resultsPath)
	if !r.Complete {
		fmt.Fprintf(stderr, "mutation: stopped before the end: continue with -resume %s\n", resultsPath)
		return exitStop
	}
	return exitOK
}

// judgeMutant writes m's file into dir with its overlay and judges it.
func judgeMutant(ctx context.Context, j *judge, dir string, f sourceFile, m Mutant) (verdict, error) {
	ov, err := writeOverlay(dir, f.Path, m.Apply(f.Src))
	if err != nil {
		return verdict{}, err
	}
	return j.Judge(ctx, dir, ov, m.File)
}

// syncCall matches the synchronization a change may touch: locks, wait
// groups, once, channel operations and atomics.
var syncCall = regexp.MustCompile(`\b(R?Lock|R?Unlock|Wait|Done|Do|Add|Load|Store|CompareAndSwap)\(|<-|\bclose\(`)

// touchesSync reports whether m removes or reorders synchronization: a
// dropped go or defer statement, or a change of a line that locks,
// waits or uses a channel. Such a mutant may run exactly as the original
// under the simulator's serialised schedule and still be a data race,
// which only the race detector sees.
func touchesSync(m Mutant) bool {
	switch baseOperator(m.Operator) {
	case "go-drop", "defer-drop":
		return true
	}
	return syncCall.MatchString(m.Diff())
}

func progressNote(r Result) string {
	switch r.Status {
	case Killed, Timeout:
		return "(" + killedBy(r) + ")"
	case Survived:
		return r.Diff
	}
	return r.Detail
}

func round1(d time.Duration) float64 {
	return float64(d.Round(100*time.Millisecond)) / float64(time.Second)
}

// moduleRoot is the directory of the main module's go.mod.
func moduleRoot(goCmd string) (string, error) {
	out, err := exec.Command(goCmd, "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside a module: run from the allocsim module")
	}
	return filepath.Dir(mod), nil
}

// gitOut runs a read-only git command in dir; "unknown" if it fails.
func gitOut(dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

// dirty lists the mutated packages (and the suite) with uncommitted
// changes, from git status (read only).
func dirty(root string, targets []target, suite string) []string {
	var out []string
	dirs := []string{filepath.Clean(suite)}
	for _, t := range targets {
		rel, err := filepath.Rel(root, t.Dir)
		if err == nil {
			dirs = append(dirs, rel)
		}
	}
	for _, d := range dirs {
		if s := gitOut(root, "status", "--porcelain", "--", d); s != "" && s != "unknown" {
			out = append(out, filepath.ToSlash(d))
		}
	}
	return out
}

// commandLine is the command as typed: go run ./internal/mutation ARGS.
func commandLine(args []string) string {
	parts := []string{"go run ./internal/mutation"}
	for _, a := range args {
		if strings.ContainsAny(a, " \t'\"$|^()*") {
			a = strconv.Quote(a)
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}
