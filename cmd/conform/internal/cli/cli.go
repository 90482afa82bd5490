package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Exit codes of the conform binary.
const (
	// ExitOK is success, including after printing help.
	ExitOK = 0
	// ExitFailure is any failure that is not bad usage or invalid input.
	ExitFailure = 1
	// ExitUsage is bad usage or invalid input.
	ExitUsage = 2
	// ExitTool is the tool itself failing where the outcome says nothing
	// about what it checks (conform run: the generated module does not
	// build, the suite did not report).
	ExitTool = 3
)

// ToolError marks a failure of the tool itself (exit code 3).
type ToolError struct {
	Err error
}

func (e *ToolError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *ToolError) Unwrap() error { return e.Err }

// Tool marks err as a failure of the tool itself. A nil err stays nil.
func Tool(err error) error {
	if err == nil {
		return nil
	}
	return &ToolError{Err: err}
}

// IsTool reports whether err is, or wraps, a ToolError.
func IsTool(err error) bool {
	var e *ToolError
	return errors.As(err, &e)
}

// RunFunc is the shape of a subcommand: name is the full command name
// ("schedule", later "job run"), used in messages and help.
type RunFunc func(name string, args []string, stdout, stderr io.Writer) error

// UsageError marks bad usage or invalid input (exit code 2).
type UsageError struct {
	Err error
}

func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *UsageError) Unwrap() error { return e.Err }

// Usage marks err as bad usage or invalid input. A nil err stays nil.
func Usage(err error) error {
	if err == nil {
		return nil
	}
	return &UsageError{Err: err}
}

// Usagef is Usage(fmt.Errorf(format, args...)).
func Usagef(format string, args ...any) error {
	return Usage(fmt.Errorf(format, args...))
}

// IsUsage reports whether err is, or wraps, a UsageError.
func IsUsage(err error) bool {
	var u *UsageError
	return errors.As(err, &u)
}

// VerbatimError is a failure whose message is printed exactly as it is,
// without the "conform <name>: " prefix: for commands whose stderr text is
// fixed by SPEC (API-8, `conform alloc pause`). Exit code 1.
type VerbatimError struct {
	Err error
}

func (e *VerbatimError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *VerbatimError) Unwrap() error { return e.Err }

// Verbatim marks err to be reported as it is; nil stays nil.
func Verbatim(err error) error {
	if err == nil || IsUsage(err) {
		return err
	}
	return &VerbatimError{Err: err}
}

// ExitCode maps a subcommand's error to the process exit code.
func ExitCode(err error) int {
	switch {
	case err == nil:
		return ExitOK
	case IsUsage(err):
		return ExitUsage
	case IsTool(err):
		return ExitTool
	default:
		return ExitFailure
	}
}

// Report writes err (if any) to stderr as "conform <name>: <err>", adds a
// pointer to --help for usage errors, and returns the exit code.
func Report(stderr io.Writer, name string, err error) int {
	if err == nil {
		return ExitOK
	}
	var v *VerbatimError
	if errors.As(err, &v) {
		fmt.Fprintln(stderr, v.Err)
		return ExitCode(err)
	}
	fmt.Fprintf(stderr, "conform %s: %v\n", name, err)
	if IsUsage(err) {
		fmt.Fprintf(stderr, "Run 'conform %s --help' for usage.\n", name)
	}
	return ExitCode(err)
}

// ParseFlags parses args with fs, which must not print anything itself: its
// output is discarded and parse errors come back as usage errors. On -h or
// --help it writes help to stdout and reports helped = true; the caller then
// returns nil (exit code 0).
func ParseFlags(fs *flag.FlagSet, args []string, stdout io.Writer, help func(io.Writer)) (helped bool, err error) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err = fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		help(stdout)
		return true, nil
	}
	if err != nil {
		return false, Usage(err)
	}
	return false, nil
}

// IsSet reports whether the flag name was given on the command line.
func IsSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// ListFlag is a repeatable flag whose values may also be comma-separated
// (--property A --property B,C): each non-empty item, in order.
type ListFlag []string

func (l *ListFlag) String() string { return strings.Join(*l, ",") }

// Set adds v's comma-separated items.
func (l *ListFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// FlagHelp is a help function for ParseFlags: head, fs's flags as
// flag.PrintDefaults prints them, then tail.
func FlagHelp(fs *flag.FlagSet, head, tail string) func(io.Writer) {
	return func(w io.Writer) {
		fmt.Fprint(w, head)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		fmt.Fprint(w, tail)
	}
}

// ParseShard parses --shard's "i/n", shard i of n with 1 ≤ i ≤ n (conform
// run splits the properties, conform sweep the seeds).
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, errors.New("want i/n with 1 ≤ i ≤ n (e.g. 1/4)")
	}
	return i, n, nil
}
