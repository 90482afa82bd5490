package rawexec

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/allocsim/allocsim/impl/allocdir"
	"github.com/allocsim/allocsim/plugins/drivers"
)

// envPath is the environment variable a command is looked up in.
const envPath = "PATH"

// Log file names in the alloc's log dir (ADIR-2 alloc/logs), as Nomad
// names the first file of a task's rotated logs.
const (
	stdoutSuffix = ".stdout.0"
	stderrSuffix = ".stderr.0"
)

// taskEnv is the task's environment: base, then PATH=basePath, then the
// task's Env merged over it, as sorted KEY=VALUE pairs (never nil, so the
// driver's own environment is not inherited).
func taskEnv(base map[string]string, basePath string, env map[string]string) []string {
	merged := maps.Clone(base)
	if merged == nil {
		merged = map[string]string{}
	}
	merged[envPath] = basePath
	for k, v := range env {
		merged[k] = v
	}
	out := make([]string, 0, len(merged))
	for k, v := range merged {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// envValue returns key's value in a KEY=VALUE list.
func envValue(env []string, key string) string {
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// lookPath resolves a command: one containing a slash is used as given
// (relative to the working dir); otherwise the first executable regular
// file of that name in an absolute directory of path. Relative PATH
// entries are skipped, as os/exec refuses them (exec.ErrDot).
func lookPath(command, path string) (string, error) {
	if strings.Contains(command, "/") {
		return command, nil
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, command)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("look up command %q in PATH %q: %w", command, path, exec.ErrNotFound)
}

// workDir is the task dir if it is set and an existing directory, else
// "" (the driver's own working dir).
func workDir(taskDir string) string {
	if taskDir == "" {
		return ""
	}
	if fi, err := os.Stat(taskDir); err == nil && fi.IsDir() {
		return taskDir
	}
	return ""
}

// logDir is the alloc's log dir beside the task dir (ADIR-2:
// <alloc dir>/alloc/logs, the task dir being <alloc dir>/<task>), or ""
// if there is no task dir or the log dir does not exist.
func logDir(taskDir string) string {
	if taskDir == "" {
		return ""
	}
	dir := filepath.Join(filepath.Dir(taskDir), allocdir.SharedAllocName, allocdir.LogDirName)
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return dir
	}
	return ""
}

// logName is the name a task's log files start with: its Name, else the
// task dir's last element.
func logName(cfg *drivers.TaskConfig) string {
	if cfg.Name != "" {
		return cfg.Name
	}
	return filepath.Base(cfg.TaskDir)
}

// openLogs opens (appending, creating 0666) the task's stdout and stderr
// files in its log dir; without a log dir both are nil (discarded).
func openLogs(cfg *drivers.TaskConfig) (stdout, stderr *os.File, err error) {
	dir := logDir(cfg.TaskDir)
	if dir == "" {
		return nil, nil, nil
	}
	base := filepath.Join(dir, logName(cfg))
	const flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	stdout, err = os.OpenFile(base+stdoutSuffix, flags, 0o666)
	if err != nil {
		return nil, nil, fmt.Errorf("open log file: %w", err)
	}
	stderr, err = os.OpenFile(base+stderrSuffix, flags, 0o666)
	if err != nil {
		_ = stdout.Close()
		return nil, nil, fmt.Errorf("open log file: %w", err)
	}
	return stdout, stderr, nil
}

// buildCmd prepares the task's process (not yet started): the resolved
// command with its args, the task's environment and working dir, output
// to the log files (or discarded), in its own process group. The caller
// closes the returned log files once the process has started (the child
// holds its own copies).
func buildCmd(cfg *drivers.TaskConfig, spec taskSpec, basePath string, base map[string]string) (*exec.Cmd, []*os.File, error) {
	env := taskEnv(base, basePath, cfg.Env)
	path, err := lookPath(spec.Command, envValue(env, envPath))
	if err != nil {
		return nil, nil, err
	}
	stdout, stderr, err := openLogs(cfg)
	if err != nil {
		return nil, nil, err
	}
	cmd := &exec.Cmd{
		Path: path,
		Args: append([]string{spec.Command}, spec.Args...),
		Env:  env,
		Dir:  workDir(cfg.TaskDir),
	}
	var files []*os.File
	if stdout != nil {
		cmd.Stdout, cmd.Stderr = stdout, stderr
		files = []*os.File{stdout, stderr}
	}
	setProcessGroup(cmd)
	return cmd, files, nil
}

// permanentStartError reports whether a failed process start will fail
// the same way on retry: the program is missing or not executable.
func permanentStartError(err error) bool {
	return errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) ||
		errors.Is(err, fs.ErrPermission)
}
