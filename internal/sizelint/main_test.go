package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shoenig/test/must"
)

func write(t *testing.T, dir, name string, size int) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	must.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must.NoError(t, os.WriteFile(p, bytes.Repeat([]byte("x"), size), 0o644))
}

// TestCheck: only regular files strictly over the limit are reported, in
// the order given; missing files and symlinks (to big files too) are not.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "small.txt", 10)
	write(t, dir, "at/limit.bin", 100)
	write(t, dir, "over one.bin", 101)
	write(t, dir, "a/big.bin", 5000)
	must.NoError(t, os.Symlink("a/big.bin", filepath.Join(dir, "link")))
	got, err := Check(dir, []string{"small.txt", "over one.bin", "at/limit.bin", "gone.txt", "link", "a/big.bin"}, 100)
	must.NoError(t, err)
	must.Eq(t, []Big{{"over one.bin", 101}, {"a/big.bin", 5000}}, got)
	must.EqOp(t, "a/big.bin: 5000 bytes (4.9 KiB)", got[1].String())
}

func TestHuman(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB",
		DefaultMax: "1 MiB", DefaultMax + DefaultMax/2: "1.5 MiB", 3 << 30: "3 GiB",
	} {
		must.EqOp(t, want, human(n), must.Sprint(n))
	}
}

// gitRepo returns a work tree whose index holds files of the given sizes
// (staged, not committed: the index is what counts).
func gitRepo(t *testing.T, files map[string]int) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	for name, size := range files {
		write(t, dir, name, size)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		must.NoError(t, err, must.Sprint(string(out)))
	}
	return dir
}

// TestRun: the command lists tracked files only, names odd paths as they
// are (no git quoting), works from a subdirectory, and exits 1 with the
// offenders on stdout.
func TestRun(t *testing.T) {
	dir := gitRepo(t, map[string]int{"ok.txt": 10, "sub/big file\tü.bin": 2048, "sub/x.go": 5})
	write(t, dir, "untracked.bin", 4096)

	var stdout, stderr bytes.Buffer
	must.EqOp(t, 1, run([]string{"-max", "1024", filepath.Join(dir, "sub")}, &stdout, &stderr))
	must.EqOp(t, "sub/big file\tü.bin: 2048 bytes (2 KiB)\n", stdout.String())
	must.StrContains(t, stderr.String(), "1 tracked file(s) over 1024 bytes (1 KiB)")

	stdout.Reset()
	stderr.Reset()
	must.EqOp(t, 0, run([]string{dir}, &stdout, &stderr), must.Sprint(stderr.String()))
	must.EqOp(t, "", stdout.String())
}

// TestRunFails: outside a work tree, or with bad arguments, it is a tool
// failure (2), never a pass.
func TestRunFails(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	var stdout, stderr bytes.Buffer
	t.Setenv("GIT_CEILING_DIRECTORIES", os.TempDir())
	must.EqOp(t, 2, run([]string{t.TempDir()}, &stdout, &stderr))
	must.StrContains(t, stderr.String(), "sizelint: git rev-parse")
	for _, args := range [][]string{{"a", "b"}, {"-max", "-1"}, {"-nope"}} {
		stderr.Reset()
		must.EqOp(t, 2, run(args, &stdout, &stderr), must.Sprint(args))
		must.True(t, strings.Contains(stderr.String(), "usage: sizelint"), must.Sprint(args))
	}
}
