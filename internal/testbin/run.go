package testbin

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Exit is how one process of a binary ended.
type Exit struct {
	// Err is the binary's exit (nil: status 0), an *exec.ExitError
	// when it ran.
	Err error
	// Elapsed is its wall time, from start to exit; CPU its user plus
	// system time and MaxRSS its peak resident set in bytes (0 where the
	// system does not say), from its rusage.
	Elapsed, CPU time.Duration
	MaxRSS       int64
}

// Run runs the binary once with args and calls event with each line of
// its go test -json stream as it arrives (the line is reused after event
// returns). The error is Run's own (the binary or test2json did not
// start, the stream broke, ctx ended); how the binary ended is in Exit,
// whose figures are set whenever the binary ran.
//
// The stream is the one `go tool test2json -t -p <ImportPath> <binary>`
// writes, to the end: test2json converts what it reads and does not
// know how the binary exited, so Run writes the final event test2json
// writes from the exit when the binary printed no verdict of its own
// (PASS or FAIL): a binary that dies in a test ends with that test's
// "fail".
func (b Binary) Run(ctx context.Context, args []string, event func(line []byte)) (Exit, error) {
	var exit Exit
	gocmd := b.Go
	if gocmd == "" {
		gocmd = "go"
	}
	convArgs := []string{"-t"}
	if b.ImportPath != "" {
		convArgs = append(convArgs, "-p", b.ImportPath)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return exit, fmt.Errorf("test binary %s: %w", b.Path, err)
	}
	conv := test2json(ctx, gocmd, convArgs...)
	conv.Stdin = pr
	var convErr bytes.Buffer
	conv.Stderr = &convErr
	events, err := conv.StdoutPipe()
	if err != nil {
		pr.Close()
		pw.Close()
		return exit, fmt.Errorf("test binary %s: %w", b.Path, err)
	}
	if err := conv.Start(); err != nil {
		pr.Close()
		pw.Close()
		return exit, fmt.Errorf("start test2json: %w", err)
	}
	pr.Close() // test2json's now

	cmd := exec.CommandContext(ctx, b.Path, args...)
	cmd.Dir = b.Dir
	if b.Env != nil {
		cmd.Env = append(os.Environ(), b.Env...)
	}
	cmd.Stdout, cmd.Stderr = pw, pw // one stream, as go test shows it
	start := time.Now()
	err = cmd.Start()
	pw.Close() // the binary's now: test2json reads to its exit
	if err != nil {
		_ = conv.Wait()
		return exit, fmt.Errorf("start the test binary: %w", err)
	}
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		exit.Err = cmd.Wait()
		exit.Elapsed = time.Since(start)
		if cmd.ProcessState != nil {
			exit.CPU, exit.MaxRSS = usage(cmd.ProcessState)
		}
	}()

	var end streamEnd
	sc := bufio.NewScanner(events)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		end.read(sc.Bytes())
		event(sc.Bytes())
	}
	scanErr := sc.Err()
	if scanErr != nil {
		// Nobody reads the events any more: end test2json, and the
		// binary with it on its next write.
		_ = conv.Process.Kill()
	}
	<-exited
	convWait := conv.Wait()
	switch {
	case ctx.Err() != nil:
		return exit, ctx.Err()
	case scanErr != nil:
		return exit, fmt.Errorf("read the test binary's events: %w", scanErr)
	case convWait != nil:
		return exit, fmt.Errorf("test2json: %w\n%s", convWait, strings.TrimSpace(convErr.String()))
	}
	for _, line := range end.finish(b.ImportPath, exit.Err, time.Since(start)) {
		event(line)
	}
	return exit, nil
}

// streamEnd follows what decides the end of a stream: test2json's
// current test (the Test of its output events) and whether the stream
// ended with the binary's verdict (a package event pass, fail or skip).
type streamEnd struct {
	test    string
	output  bool // the binary printed something
	verdict bool
}

func (s *streamEnd) read(line []byte) {
	var e struct{ Action, Test string }
	if json.Unmarshal(line, &e) != nil {
		return
	}
	switch e.Action {
	case "output":
		s.test, s.output, s.verdict = e.Test, true, false
	case "pass", "fail", "skip":
		s.verdict = e.Test == ""
	default:
		s.verdict = false
	}
}

// finish returns the events test2json writes when the binary has exited
// with err (cmd/test2json's Exited and Close) that it could not write
// without knowing the exit: with no verdict printed, the outcome, for
// the test it was in; a "test2json: <err>" line when the binary printed
// nothing.
func (s *streamEnd) finish(pkg string, err error, elapsed time.Duration) [][]byte {
	if s.verdict {
		return nil
	}
	type ev struct {
		Time    time.Time
		Action  string
		Package string   `json:",omitempty"`
		Test    string   `json:",omitempty"`
		Elapsed *float64 `json:",omitempty"`
		Output  string   `json:",omitempty"`
	}
	var out []ev
	if err != nil && !s.output {
		out = append(out, ev{Time: time.Now(), Action: "output", Package: pkg, Output: fmt.Sprintf("test2json: %v\n", err)})
	}
	action := "pass"
	if err != nil {
		action = "fail"
	}
	dt := elapsed.Round(time.Millisecond).Seconds()
	out = append(out, ev{Time: time.Now(), Action: action, Package: pkg, Test: s.test, Elapsed: &dt})
	lines := make([][]byte, len(out))
	for i, e := range out {
		lines[i], _ = json.Marshal(e) // plain fields: cannot fail
	}
	return lines
}
