package main

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// benchstat is the comparison tool, run by version so that go.mod does
// not grow a dependency.
const benchstat = "golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da"

// dateKey is the header line of a raw file that dates its run. Header
// lines start with "# ", which benchstat ignores (neither a result nor a
// key: value configuration line); rawHeader reads them back.
const dateKey = "# date: "

// rawName is the file name of a run's raw output:
// <YYYY-MM-DD>-<shortcommit>.txt, with -2, -3, ... before .txt when a run
// of the same day and commit is already in dir.
func rawName(dir string, date time.Time, commit string) string {
	base := date.UTC().Format("2006-01-02") + "-" + commit
	name := base + ".txt"
	for i := 2; ; i++ {
		if _, err := os.Stat(filepath.Join(dir, name)); errors.Is(err, fs.ErrNotExist) {
			return name
		}
		name = fmt.Sprintf("%s-%d.txt", base, i)
	}
}

// RawText is the raw output of run in benchstat format: every process's
// `go test -bench` output as printed, between header lines that say when,
// where and under what load it ran.
func RawText(run Run) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# allocsim benchmarks, go run ./internal/benchreport; benchstat ignores the lines starting with #\n")
	fmt.Fprintf(&b, "%s%s\n", dateKey, run.Date.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "# commit: %s\n", run.Commit)
	fmt.Fprintf(&b, "# modified: %d paths of the work tree differ from the commit (git status)\n", run.Modified)
	if run.Note != "" {
		fmt.Fprintf(&b, "# note: %s\n", strings.ReplaceAll(run.Note, "\n", " "))
	}
	fmt.Fprintf(&b, "# machine: %s\n", run.Machine)
	fmt.Fprintf(&b, "# settings: -count %d -benchtime %s\n", run.Count, run.Benchtime)
	fmt.Fprintf(&b, "# load-before: %s\n", run.LoadBefore)
	for _, m := range run.Measurements {
		if m.Status == Skipped || (m.Status == Failed && m.Output == "") {
			fmt.Fprintf(&b, "# benchmark: %s (./%s) %s: %s\n", m.Bench.Name, m.Bench.Pkg, m.Status, m.Note)
			continue
		}
		fmt.Fprintf(&b, "# benchmark: %s (./%s), load %s\n", m.Bench.Name, m.Bench.Pkg, m.Load)
		b.WriteString(m.Output)
		if !strings.HasSuffix(m.Output, "\n") {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "# rusage: %s cpu %.3fs maxrss %d B wall %.3fs\n", m.Bench.Name, m.CPU.Seconds(), m.MaxRSS, m.Elapsed.Seconds())
		if m.Status == Failed {
			fmt.Fprintf(&b, "# failed: %s\n", m.Note)
		}
	}
	fmt.Fprintf(&b, "# load-after: %s\n", run.LoadAfter)
	return b.String()
}

// rawHeader is the value of the first header line "# <key>: " of a raw
// file, "" when it has none.
func rawHeader(data []byte, key string) string {
	prefix := "# " + key + ": "
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), prefix); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// rawDate is the date header of a raw file, zero when it has none.
func rawDate(data []byte) time.Time {
	t, err := time.Parse(time.RFC3339, rawHeader(data, "date"))
	if err != nil {
		return time.Time{}
	}
	return t
}

// previousLoad is the load a raw file's run saw, as the README quotes
// it: "7.49 5.96 4.18 before, 7.41 6.26 4.41 after".
func previousLoad(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	before, after := rawHeader(data, "load-before"), rawHeader(data, "load-after")
	if before == "" || after == "" {
		return ""
	}
	return before + " before, " + after + " after"
}

// previousRun picks the raw file of dir to compare a new run with: the
// newest (by date header, then name) of those git tracks, or of all when
// git tracks none; except is the new run's own file. It returns "" when
// there is none.
func previousRun(dir, except string) (name string, committed bool, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false, fmt.Errorf("list %s: %w", dir, err)
	}
	tracked := trackedIn(dir)
	type cand struct {
		name string
		date time.Time
	}
	var all, inGit []cand
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".txt") || e.Name() == except {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return "", false, fmt.Errorf("read %s: %w", e.Name(), err)
		}
		c := cand{e.Name(), rawDate(data)}
		all = append(all, c)
		if tracked[e.Name()] {
			inGit = append(inGit, c)
		}
	}
	pick, committed := all, false
	if len(inGit) > 0 {
		pick, committed = inGit, true
	}
	if len(pick) == 0 {
		return "", false, nil
	}
	newest := slices.MaxFunc(pick, func(a, b cand) int { return cmp.Or(a.date.Compare(b.date), cmp.Compare(a.name, b.name)) })
	return newest.name, committed, nil
}

// trackedIn is the set of file names git tracks directly in dir; empty
// when dir is not in a work tree.
func trackedIn(dir string) map[string]bool {
	out, err := git(dir, "ls-files", "-z", "--", ".")
	set := map[string]bool{}
	if err != nil {
		return set
	}
	for _, p := range strings.Split(out, "\x00") {
		if p != "" && !strings.Contains(p, "/") {
			set[p] = true
		}
	}
	return set
}

// runBenchstat compares two raw files of dir with benchstat, run with go
// run by version: first from the module cache alone (GOPROXY set to its
// download directory, which works offline once benchstat was fetched),
// then through the configured proxy.
func runBenchstat(dir, old, new string) (string, error) {
	var errs []error
	if cache, err := modCacheProxy(dir); err == nil {
		out, err := goRunBenchstat(dir, []string{"GOPROXY=" + cache}, old, new)
		if err == nil {
			return out, nil
		}
		errs = append(errs, fmt.Errorf("from the module cache: %w", err))
	}
	out, err := goRunBenchstat(dir, nil, old, new)
	if err == nil {
		return out, nil
	}
	return "", errors.Join(append(errs, err)...)
}

// modCacheProxy is the module cache's download directory as a GOPROXY
// URL.
func modCacheProxy(dir string) (string, error) {
	cmd := exec.Command("go", "env", "GOMODCACHE")
	cmd.Dir = dir
	out, err := cmd.Output()
	cache := strings.TrimSpace(string(out))
	if err != nil || cache == "" {
		return "", fmt.Errorf("go env GOMODCACHE: %w", err)
	}
	p := filepath.ToSlash(filepath.Join(cache, "cache", "download"))
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: p}).String(), nil
}

func goRunBenchstat(dir string, env []string, old, new string) (string, error) {
	cmd := exec.Command("go", "run", benchstat, old, new)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go run %s %s %s: %w: %s", benchstat, old, new, err, lastLines(stderr.String(), 2))
	}
	return stdout.String(), nil
}
