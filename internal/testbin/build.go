package testbin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Build is one `go test -c`.
type Build struct {
	// Go is the go command (default "go").
	Go string
	// Dir is where the go command runs, a directory of the package's
	// module; Pkg is the package relative to it ("./sim", ".").
	Dir, Pkg string
	// ImportPath names the package in the events (test2json -p; empty:
	// no Package field).
	ImportPath string
	// Out is where the binary goes.
	Out string
	// Env is added to the go command's environment (GOWORK=off, ...).
	Env []string
	// Flags are more go test -c flags (-race, -overlay=FILE, -vet=off).
	Flags []string
}

// Binary is a built test binary.
type Binary struct {
	// Path is the executable; Dir the package's directory, where it
	// runs.
	Path, Dir string
	// ImportPath and Go are the build's.
	ImportPath, Go string
	// Env is added to the environment the binary runs in (Run).
	Env []string
}

// ErrNoTestFiles is Compile's error for a package without test files, of
// which go test -c writes no binary.
var ErrNoTestFiles = errors.New("no test files")

// GoError is a go command that failed (go test -c, go list, ...).
type GoError struct {
	// Go and Args are the command; Err how it ended; Output what it
	// printed.
	Go     string
	Args   []string
	Err    error
	Output string
}

func (e *GoError) Error() string {
	return fmt.Sprintf("%s %s: %v\n%s", e.Go, strings.Join(e.Args, " "), e.Err, strings.TrimSpace(e.Output))
}

func (e *GoError) Unwrap() error { return e.Err }

// Compile builds b's test binary. A failed build is a *GoError.
func Compile(ctx context.Context, b Build) (Binary, error) {
	if b.Go == "" {
		b.Go = "go"
	}
	args := append(append([]string{"test", "-c"}, b.Flags...), "-o", b.Out, b.Pkg)
	if _, err := RunGo(ctx, b.Go, b.Dir, b.Env, args...); err != nil {
		return Binary{}, err
	}
	if _, err := os.Stat(b.Out); err != nil {
		return Binary{}, fmt.Errorf("%s: %w", b.Pkg, ErrNoTestFiles)
	}
	return Binary{Path: b.Out, Dir: filepath.Join(b.Dir, filepath.FromSlash(b.Pkg)), ImportPath: b.ImportPath, Go: b.Go}, nil
}

// ModuleDir returns the directory of module as seen from dir (go list
// -m): the main module there, or the version it requires.
func ModuleDir(ctx context.Context, gocmd, dir, module string) (string, error) {
	if gocmd == "" {
		gocmd = "go"
	}
	out, err := RunGo(ctx, gocmd, dir, nil, "list", "-m", "-f", "{{.Dir}}", module)
	if err != nil {
		return "", err
	}
	d := strings.TrimSpace(string(out))
	if d == "" {
		return "", fmt.Errorf("go list -m %s: no directory (not downloaded?)", module)
	}
	return d, nil
}

// RunGo runs the go command gocmd in dir, env added to the environment,
// and returns its standard output; its error is a *GoError whose Output
// is its standard error, then its standard output. Standard error stays
// out of the result: the go command reports there the modules it
// downloads ("go: downloading ..."), which on a fresh module cache came
// before the JSON of `go list -json` and broke its decoding.
func RunGo(ctx context.Context, gocmd, dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, gocmd, args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), &GoError{Go: gocmd, Args: args, Err: err, Output: stderr.String() + stdout.String()}
	}
	return stdout.Bytes(), nil
}
