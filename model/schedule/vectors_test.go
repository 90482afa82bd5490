package schedule

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

// TestEvaluateVectors runs the hand-checked vectors of
// testdata/evaluate.txt (format in its header) through Evaluate,
// NextWindows and the Compiled forms.
func TestEvaluateVectors(t *testing.T) {
	f, err := os.Open("testdata/evaluate.txt")
	must.NoError(t, err)
	defer f.Close()

	var (
		local   *time.Location
		sched   *Schedule
		lineNo  int
		checked int
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lineNo++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		verb, rest, _ := strings.Cut(line, " ")
		where := fmt.Sprintf("evaluate.txt:%d", lineNo)
		switch verb {
		case "local":
			local = nil
			if rest != "-" {
				local = mustZone(t, rest)
			}
		case "schedule":
			sched = parseScheduleLine(t, where, rest)
		case "at":
			checkAt(t, where, sched, local, rest)
			checked++
		case "windows":
			checkWindows(t, where, sched, local, rest)
			checked++
		case "error":
			_, err := Evaluate(sched, time.Unix(0, 0), local)
			must.EqError(t, err, rest, must.Sprint(where))
			_, err = NextWindows(sched, time.Unix(0, 0), local, 1)
			must.EqError(t, err, rest, must.Sprint(where))
			checked++
		default:
			t.Fatalf("%s: unknown directive %q", where, verb)
		}
	}
	must.NoError(t, sc.Err())
	must.Greater(t, 60, checked)
	t.Logf("%d vectors checked", checked)
}

func parseScheduleLine(t *testing.T, where, rest string) *Schedule {
	t.Helper()
	parts := strings.Split(rest, "|")
	if len(parts) != 3 {
		t.Fatalf("%s: want <zone> | <start> | <end>", where)
	}
	zone := strings.TrimSpace(parts[0])
	if zone == "-" {
		zone = ""
	}
	return &Schedule{Cron: &Cron{
		Timezone: zone,
		Start:    strings.TrimSpace(parts[1]),
		End:      strings.TrimSpace(parts[2]),
	}}
}

// checkAt compares Evaluate's result, printed as the vector line prints
// it, with the line.
func checkAt(t *testing.T, where string, s *Schedule, local *time.Location, rest string) {
	t.Helper()
	atText, want, _ := strings.Cut(rest, " ")
	at := mustTime(t, atText)
	r, err := Evaluate(s, at, local)
	must.NoError(t, err, must.Sprint(where))
	must.EqOp(t, want, formatResult(r), must.Sprint(where))

	c, err := Compile(s, local)
	must.NoError(t, err)
	must.EqOp(t, want, formatResult(c.Evaluate(at)), must.Sprint(where, " (compiled)"))
	if !r.NextStart.IsZero() {
		must.EqOp(t, c.Location(), r.NextStart.Location(), must.Sprint(where))
	}
}

func checkWindows(t *testing.T, where string, s *Schedule, local *time.Location, rest string) {
	t.Helper()
	head, want, ok := strings.Cut(rest, " =")
	must.True(t, ok, must.Sprint(where, ": missing ="))
	fields := strings.Fields(head)
	must.SliceLen(t, 2, fields, must.Sprint(where))
	n, err := strconv.Atoi(fields[1])
	must.NoError(t, err)
	ws, err := NextWindows(s, mustTime(t, fields[0]), local, n)
	must.NoError(t, err, must.Sprint(where))
	must.NotNil(t, ws)
	must.EqOp(t, strings.TrimSpace(want), formatWindows(ws), must.Sprint(where))
}

func formatResult(r Result) string {
	var b strings.Builder
	if r.Inside {
		fmt.Fprintf(&b, "inside %s %s ", stamp(r.WindowStart, "none"), stamp(r.WindowEnd, "never"))
	} else {
		b.WriteString("outside ")
		if !r.WindowStart.IsZero() || !r.WindowEnd.IsZero() {
			b.WriteString("(window set while outside!) ")
		}
	}
	fmt.Fprintf(&b, "next %s %s", stamp(r.NextStart, "none"), stamp(r.NextEnd, "none"))
	return b.String()
}

func formatWindows(ws []Window) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = stamp(w.Start, "none") + "/" + stamp(w.End, "never")
	}
	return strings.Join(parts, " ")
}

func stamp(t time.Time, zero string) string {
	if t.IsZero() {
		return zero
	}
	return t.Format(time.RFC3339Nano)
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	must.NoError(t, err)
	return at
}

func mustZone(t must.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	must.NoError(t, err)
	return loc
}
