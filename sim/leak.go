package sim

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"reflect"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/allocsim/allocsim/internal/watchdog"
)

// incarnationLabel is the pprof label every goroutine a client incarnation
// starts carries (pprof labels are inherited by the goroutines a goroutine
// starts), so that after Shutdown the world can count what is left of it.
const incarnationLabel = "allocsim_incarnation"

// withIncarnation runs f with the incarnation label set, so every
// goroutine f starts, directly or not, carries it.
func withIncarnation(id string, f func()) {
	pprof.Do(context.Background(), pprof.Labels(incarnationLabel, id), func(context.Context) { f() })
}

// leftGoroutines describes the goroutines of the process labelled with
// incarnation id, from the goroutine profile (debug=1 prints labels and
// the frames of each group of goroutines with one stack), sorted: per
// group "<n> × <entry function> (<file:line>), blocked in <function>
// (<file:line>), started by <function> (<file:line>)", so a leak names
// where each was started. Goroutines a
// clock timer started carry the labels of the goroutine that advanced
// the clock instead, so callbacks in flight are not counted.
func leftGoroutines(id string) (total int, groups []string) {
	if onlyHarnessGoroutines() {
		return 0, nil
	}
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		return -1, nil
	}
	want := `"` + incarnationLabel + `":"` + id + `"`
	if !bytes.Contains(buf.Bytes(), []byte(want)) {
		// No goroutine carries the label (a clean shutdown): nothing to
		// describe.
		return 0, nil
	}
	count, mine := 0, false
	var frames, entries []string
	var creators map[string]string
	flush := func() {
		if mine && len(frames) > 0 {
			total += count
			g := fmt.Sprintf("%d × %s", count, frames[len(frames)-1])
			if len(frames) > 1 {
				g += ", blocked in " + frames[0]
			}
			if creators == nil {
				creators = startedBy()
			}
			if c, ok := creators[entries[len(entries)-1]]; ok {
				g += ", started by " + c
			}
			groups = append(groups, g)
		}
		count, mine, frames, entries = 0, false, nil, nil
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		if n, rest, ok := strings.Cut(line, " @ "); ok && rest != "" {
			flush()
			count, _ = strconv.Atoi(n)
			continue
		}
		switch {
		case strings.HasPrefix(line, "# labels: "):
			mine = strings.Contains(line, want)
		case strings.HasPrefix(line, "#\t"):
			// "#\t0x...\tpkg.func+0x29\t/path/file.go:14"
			f := strings.Split(line, "\t")
			if len(f) >= 4 {
				fn, _, _ := strings.Cut(f[2], "+0x")
				frames = append(frames, fmt.Sprintf("%s (%s)", fn, shortPath(f[3])))
				entries = append(entries, fn)
			}
		}
	}
	flush()
	slices.Sort(groups)
	return total, groups
}

// harnessEntries are the functions goroutines run that no runner can
// start: the program's main, the testing package's test runner (a
// test's goroutine, a bubble's root goroutine inside it), synctest's
// bubble starter, the watchdog, and the CPU profile's writer (go test
// -cpuprofile). A runner cannot call t.Run, nest a bubble or import the
// watchdog (and does not profile the process), so a goroutine running
// one of these carries no incarnation label.
var harnessEntries = map[string]bool{
	"runtime.main":                true,
	"testing.tRunner":             true,
	"testing/synctest.Test.func1": true,
	watchdog.Entry:                true,
	"runtime/pprof.profileWriter": true,
}

// recordsPool holds goroutine profile buffers between leak checks.
var recordsPool = sync.Pool{New: func() any { return new([]runtime.StackRecord) }}

// onlyHarnessGoroutines reports whether every goroutine of the process
// runs one of harnessEntries, so none can carry an incarnation label:
// leftGoroutines' cheap answer for a process that runs one check at a
// time (the goroutine profile with labels, which it needs otherwise,
// costs a few percent of a check). It answers false whenever it cannot
// tell, so the caller falls back to the labels: a stack the profile
// truncated, another check's goroutines, a goroutine some callback
// started.
//
// It is never inlined: checking finds it in a stack by its entry.
//
//go:noinline
func onlyHarnessGoroutines() bool {
	self := runtime.FuncForPC(reflect.ValueOf(onlyHarnessGoroutines).Pointer()).Entry()
	p := recordsPool.Get().(*[]runtime.StackRecord)
	defer recordsPool.Put(p)
	n, ok := 0, false
	for !ok {
		if want := runtime.NumGoroutine() + 8; len(*p) < want {
			*p = make([]runtime.StackRecord, want)
		}
		n, ok = runtime.GoroutineProfile(*p)
	}
	for i := range (*p)[:n] {
		r := &(*p)[i]
		stk := r.Stack()
		switch {
		case checking(stk, self):
			// This goroutine, or another world's at the same point.
		case len(stk) < 2 || len(stk) == len(r.Stack0):
			return false // truncated: the entry is not in it
		case entry(stk[len(stk)-2:]) == "":
			return false
		}
	}
	return true
}

// checking reports whether a goroutine's stack (innermost frame first)
// is in onlyHarnessGoroutines: a world's goroutine checking for leaks,
// which is not a runner's (the world never checks from inside
// withIncarnation). It compares function entries, which needs no file
// and line lookup.
func checking(stk []uintptr, self uintptr) bool {
	for _, pc := range stk[:min(len(stk), 3)] {
		if f := runtime.FuncForPC(pc - 1); f != nil && f.Entry() == self {
			return true
		}
	}
	return false
}

// entry is the harness entry function of a goroutine whose stack ends
// with tail (its entry's frame, then runtime.goexit), or "" if it is not
// one.
func entry(tail []uintptr) string {
	frames := runtime.CallersFrames(tail)
	var outer, last string
	for {
		f, more := frames.Next()
		outer, last = last, f.Function
		if !more {
			break
		}
	}
	if last != "runtime.goexit" || !harnessEntries[outer] {
		return ""
	}
	return outer
}

// startedBy maps a goroutine's entry function, as the goroutine profile
// prints it, to where goroutines running it were started ("<function>
// (<file:line>)"), from the full stack dump (which has the "created by"
// lines the profile lacks).
func startedBy() map[string]string {
	out := map[string]string{}
	for _, block := range strings.Split(string(watchdog.Dump()), "\n\n") {
		lines := strings.Split(block, "\n")
		for i, l := range lines {
			creator, ok := strings.CutPrefix(l, "created by ")
			if !ok || i < 2 {
				continue
			}
			entry := funcName(lines[i-2])
			creator, _, _ = strings.Cut(creator, " in goroutine")
			loc := ""
			if i+1 < len(lines) {
				loc, _, _ = strings.Cut(strings.TrimSpace(lines[i+1]), " +0x")
			}
			out[entry] = fmt.Sprintf("%s (%s)", creator, shortPath(loc))
		}
	}
	return out
}

// shortPath is file:line with the file's directory and name only, so a
// message reads the same on every machine.
func shortPath(fileLine string) string {
	parts := strings.Split(fileLine, "/")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, "/")
}

// bubbleDeadlock is how synctest.Test's panic begins when the test body
// returned while goroutines of its bubble are still blocked: goroutines
// the run left behind, which nothing will ever wake.
const bubbleDeadlock = "deadlock: main bubble goroutine has exited but blocked goroutines remain"

// leftInBubble describes the goroutines still in bubble, sorted: per
// goroutine what it waits for, where, and where it was started.
func leftInBubble(bubble uint64) []string {
	var out []string
	for _, g := range watchdog.Goroutines(watchdog.Dump(), bubble) {
		out = append(out, describeGoroutine(g))
	}
	slices.Sort(out)
	return out
}

// describeGoroutine is "<wait reason> in <function> (<file:line>),
// started by <function> (<file:line>)" from a goroutine's stack.
func describeGoroutine(g watchdog.Goroutine) string {
	lines := strings.Split(g.Stack, "\n")
	at := func(i int) string {
		fn := funcName(lines[i])
		loc := ""
		if i+1 < len(lines) {
			loc, _, _ = strings.Cut(strings.TrimSpace(lines[i+1]), " +0x")
		}
		return fmt.Sprintf("%s (%s)", fn, shortPath(loc))
	}
	top, creator := "", ""
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "created by "):
			fn, _, _ := strings.Cut(strings.TrimPrefix(l, "created by "), " in goroutine")
			loc := ""
			if i+1 < len(lines) {
				loc, _, _ = strings.Cut(strings.TrimSpace(lines[i+1]), " +0x")
			}
			creator = fmt.Sprintf("%s (%s)", fn, shortPath(loc))
		case top == "" && !strings.HasPrefix(l, "\t") && !strings.HasPrefix(l, "runtime.") &&
			!strings.HasPrefix(l, "internal/") && !strings.HasPrefix(l, "time.") && !strings.HasPrefix(l, "sync."):
			top = at(i)
		}
	}
	reason, _, _ := strings.Cut(g.Reason(), " (durable)")
	d := reason + " in " + cmp.Or(top, "?")
	if creator != "" {
		d += ", started by " + creator
	}
	return d
}

// funcName is the function of a stack dump's frame line,
// "pkg.(*T).m(0x1, 0x2)" without its arguments.
func funcName(line string) string {
	if i := strings.LastIndex(line, "("); i > 0 {
		return line[:i]
	}
	return line
}
