package sim

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"

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
// (<file:line>)", so a leak names where each was started. Goroutines a
// clock timer started carry the labels of the goroutine that advanced
// the clock instead, so callbacks in flight are not counted.
func leftGoroutines(id string) (total int, groups []string) {
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		return -1, nil
	}
	want := `"` + incarnationLabel + `":"` + id + `"`
	count, mine := 0, false
	var frames []string
	flush := func() {
		if mine && len(frames) > 0 {
			total += count
			g := fmt.Sprintf("%d × %s", count, frames[len(frames)-1])
			if len(frames) > 1 {
				g += ", blocked in " + frames[0]
			}
			groups = append(groups, g)
		}
		count, mine, frames = 0, false, nil
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
			}
		}
	}
	flush()
	slices.Sort(groups)
	return total, groups
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
		fn, _, _ := strings.Cut(lines[i], "(")
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
