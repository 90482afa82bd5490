package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Machine is what the run was measured on.
type Machine struct {
	CPU        string // lscpu's model name
	Cores      int    // logical CPUs available
	GOMAXPROCS int    // what the benchmark processes run with
	Go         string // the go version that built them: go1.26.8
	Platform   string // linux/amd64
}

// String is one line: "AMD EPYC, 2 CPUs, GOMAXPROCS 2, go1.26.8 linux/amd64".
func (m Machine) String() string {
	return fmt.Sprintf("%s, %d CPUs, GOMAXPROCS %d, %s %s", m.CPU, m.Cores, m.GOMAXPROCS, m.Go, m.Platform)
}

// Load is the 1, 5 and 15 minute load averages; OK false when unknown.
type Load struct {
	Avg [3]float64
	OK  bool
}

// String renders the three averages, "unknown" when not read.
func (l Load) String() string {
	if !l.OK {
		return "unknown"
	}
	return fmt.Sprintf("%.2f %.2f %.2f", l.Avg[0], l.Avg[1], l.Avg[2])
}

// parseUptime reads the load averages from uptime's output ("... load
// average: 3.68, 3.59, 2.87", or "load averages: 1.2 1.1 1.0" on BSDs).
func parseUptime(out string) (Load, error) {
	i := strings.LastIndex(out, "load average")
	if i < 0 {
		return Load{}, fmt.Errorf("no load average in %q", strings.TrimSpace(out))
	}
	rest := out[i+len("load average"):]
	rest = strings.TrimLeft(strings.TrimPrefix(rest, "s"), ": ")
	f := strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' })
	if len(f) < 3 {
		return Load{}, fmt.Errorf("want three load averages in %q", strings.TrimSpace(out))
	}
	var l Load
	for k := range 3 {
		v, err := strconv.ParseFloat(f[k], 64)
		if err != nil {
			return Load{}, fmt.Errorf("load average %q: %w", f[k], err)
		}
		l.Avg[k] = v
	}
	l.OK = true
	return l, nil
}

// readLoad runs uptime; the load is unknown (not an error of the run)
// when it cannot.
func readLoad() Load {
	out, err := exec.Command("uptime").Output()
	if err != nil {
		return Load{}
	}
	l, err := parseUptime(string(out))
	if err != nil {
		return Load{}
	}
	return l
}

// readMachine describes this machine and the go toolchain in dir.
func readMachine(dir string) Machine {
	m := Machine{CPU: cpuModel(), Cores: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if v, err := strconv.Atoi(os.Getenv("GOMAXPROCS")); err == nil && v > 0 {
		m.GOMAXPROCS = v
	}
	cmd := exec.Command("go", "env", "GOVERSION")
	cmd.Dir = dir
	if out, err := cmd.Output(); err == nil && len(bytes.TrimSpace(out)) > 0 {
		m.Go = string(bytes.TrimSpace(out))
	}
	return m
}

// cpuModel is lscpu's "Model name", else /proc/cpuinfo's, else "unknown
// CPU".
func cpuModel() string {
	if out, err := exec.Command("lscpu").Output(); err == nil {
		if v := field(out, "Model name:"); v != "" {
			return v
		}
	}
	if out, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		if v := field(out, "model name"); v != "" {
			return strings.TrimSpace(strings.TrimPrefix(v, ":"))
		}
	}
	return "unknown CPU"
}

// field is the rest of the first line of out that starts with key,
// trimmed.
func field(out []byte, key string) string {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, key) {
			return strings.TrimSpace(strings.TrimPrefix(line, key))
		}
	}
	return ""
}

// git runs git in dir and returns its output, trailing newlines trimmed.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s in %s: %w: %s", strings.Join(args, " "), dir, err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimRight(string(out), "\n"), nil
}

// commitOf returns dir's short HEAD commit and how many paths of its work
// tree differ from it (git status), those under skip (the output
// directory, absolute) left out.
func commitOf(dir, skip string) (commit string, modified int, err error) {
	commit, err = git(dir, "rev-parse", "--short", "HEAD")
	if err != nil {
		return "", 0, err
	}
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", 0, err
	}
	status, err := git(dir, "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		return "", 0, err
	}
	rel, err := filepath.Rel(top, skip)
	skipPrefix := ""
	if err == nil && !strings.HasPrefix(rel, "..") {
		skipPrefix = filepath.ToSlash(rel) + "/"
	}
	for _, line := range strings.Split(status, "\n") {
		if len(line) < 4 {
			continue
		}
		path := strings.Trim(line[3:], `"`)
		if skipPrefix != "" && strings.HasPrefix(path, skipPrefix) {
			continue
		}
		modified++
	}
	return commit, modified, nil
}
