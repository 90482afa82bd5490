package watchdog

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// bubbleMark precedes the bubble's number in a goroutine header.
const bubbleMark = ", synctest bubble "

// Bubble is the number of the synctest bubble of the calling goroutine,
// as the runtime prints it in goroutine headers, or 0 outside a bubble.
func Bubble() uint64 {
	var buf [256]byte
	n := runtime.Stack(buf[:], false)
	header, _, _ := bytes.Cut(buf[:n], []byte("\n"))
	_, status := parseHeader(string(header))
	return bubbleOf(status)
}

// Goroutine is one goroutine of a dump.
type Goroutine struct {
	ID int
	// Status is what the header prints between the brackets, e.g.
	// "sync.Mutex.Lock, synctest bubble 1".
	Status string
	// Stack is the goroutine's whole text, header included.
	Stack string
}

// Reason is the wait reason, e.g. "sync.Mutex.Lock" or "chan receive
// (durable)".
func (g Goroutine) Reason() string {
	r, _, _ := strings.Cut(g.Status, ",")
	return r
}

// Durable reports whether the goroutine is durably blocked: synctest
// counts it as blocked, so it does not keep synctest.Wait from
// returning.
func (g Goroutine) Durable() bool { return strings.HasSuffix(g.Reason(), " (durable)") }

// LockWait reports whether the goroutine waits for a sync.Mutex or a
// sync.RWMutex, which synctest never counts as durably blocked.
func (g Goroutine) LockWait() bool {
	switch g.Reason() {
	case "sync.Mutex.Lock", "sync.RWMutex.Lock", "sync.RWMutex.RLock":
		return true
	}
	return false
}

// Dump is runtime.Stack of every goroutine of the process.
func Dump() []byte {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 256<<20 {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// Goroutines are the goroutines of bubble in dump, in the dump's order.
func Goroutines(dump []byte, bubble uint64) []Goroutine {
	var out []Goroutine
	for _, block := range strings.Split(strings.TrimSpace(string(dump)), "\n\n") {
		header, _, _ := strings.Cut(block, "\n")
		id, status := parseHeader(header)
		if id == 0 || bubbleOf(status) != bubble || bubble == 0 {
			continue
		}
		out = append(out, Goroutine{ID: id, Status: status, Stack: block})
	}
	return out
}

// parseHeader splits "goroutine 12 [status]:" into 12 and status.
func parseHeader(h string) (int, string) {
	rest, ok := strings.CutPrefix(h, "goroutine ")
	if !ok {
		return 0, ""
	}
	num, rest, ok := strings.Cut(rest, " [")
	if !ok {
		return 0, ""
	}
	// GOTRACEBACK=system and above print "gp=... m=..." after the number.
	num, _, _ = strings.Cut(num, " ")
	id, err := strconv.Atoi(num)
	if err != nil {
		return 0, ""
	}
	status, ok := strings.CutSuffix(rest, "]:")
	if !ok {
		return 0, ""
	}
	return id, status
}

// bubbleOf is the bubble number a header's status names, or 0.
func bubbleOf(status string) uint64 {
	_, rest, ok := strings.Cut(status, bubbleMark)
	if !ok {
		return 0
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(rest)
	}
	n, err := strconv.ParseUint(rest[:end], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// PackageDir is the working directory (a test binary runs in its
// package's directory) relative to the module root, as `go test` takes
// it ("./sim"), or "." if no go.mod is found above it.
func PackageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "."
		}
		dir = parent
	}
}
