package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// DefaultMax is the limit without -max: 1 MiB.
const DefaultMax = 1 << 20

// Big is a tracked file over the limit.
type Big struct {
	Path string // as git lists it, relative to the work tree's top
	Size int64
}

func (b Big) String() string { return fmt.Sprintf("%s: %d bytes (%s)", b.Path, b.Size, human(b.Size)) }

// human renders n bytes in the largest binary unit that keeps it ≥ 1, to
// one decimal ("1.5 MiB", "2 KiB", "512 B").
func human(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, i := float64(n)/1024, 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0") + " " + units[i:i+1] + "iB"
}

// Check returns, in the order given, the files among paths (relative to
// top) larger than limit bytes. A path missing from the work tree (deleted
// but still in the index) or not a regular file is skipped.
func Check(top string, paths []string, limit int64) ([]Big, error) {
	var out []Big
	for _, p := range paths {
		info, err := os.Lstat(filepath.Join(top, filepath.FromSlash(p)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("sizelint: %w", err)
		}
		if info.Mode().IsRegular() && info.Size() > limit {
			out = append(out, Big{Path: p, Size: info.Size()})
		}
	}
	return out, nil
}

// Tracked returns the top of dir's work tree and the files git tracks
// there, relative to the top, exactly as named (-z: no quoting).
func Tracked(dir string) (top string, paths []string, err error) {
	out, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", nil, err
	}
	top = strings.TrimRight(string(out), "\n")
	out, err = git(top, "ls-files", "-z")
	if err != nil {
		return "", nil, err
	}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			paths = append(paths, string(p))
		}
	}
	return top, paths, nil
}

func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("sizelint: git %s in %s: %w: %s", strings.Join(args, " "), dir, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// run is main without the exit: 0 clean, 1 files over the limit, 2 a
// usage or tool failure.
func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("sizelint", flag.ContinueOnError)
	fl.SetOutput(stderr)
	limit := fl.Int64("max", DefaultMax, "largest allowed tracked file, in bytes")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: sizelint [-max BYTES] [DIR]\n\nReports the files git tracks in DIR's work tree (default .) that are larger than -max bytes.")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 1 || *limit < 0 {
		fl.Usage()
		return 2
	}
	dir := "."
	if fl.NArg() == 1 {
		dir = fl.Arg(0)
	}
	top, paths, err := Tracked(dir)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	big, err := Check(top, paths, *limit)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	for _, b := range big {
		fmt.Fprintln(stdout, b)
	}
	if len(big) > 0 {
		fmt.Fprintf(stderr, "sizelint: %d tracked file(s) over %d bytes (%s)\n", len(big), *limit, human(*limit))
		return 1
	}
	return 0
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }
