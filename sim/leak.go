package sim

import (
	"bytes"
	"context"
	"runtime/pprof"
	"strconv"
	"strings"
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

// liveGoroutines counts the goroutines of the process labelled with
// incarnation id, from the goroutine profile (debug=1 prints labels).
// Goroutines a clock timer started carry the labels of the goroutine that
// advanced the clock instead, so callbacks in flight are not counted.
func liveGoroutines(id string) int {
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		return -1
	}
	want := `"` + incarnationLabel + `":"` + id + `"`
	total, count := 0, 0
	for _, line := range strings.Split(buf.String(), "\n") {
		if n, rest, ok := strings.Cut(line, " @ "); ok && rest != "" {
			count, _ = strconv.Atoi(n)
			continue
		}
		if strings.HasPrefix(line, "# labels: ") && strings.Contains(line, want) {
			total += count
		}
	}
	return total
}
