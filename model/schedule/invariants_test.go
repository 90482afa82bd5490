package schedule

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

// checkInvariants asserts what SCHED-8 implies for any schedule at any
// instant, with no oracle: the shape of the result, the zone and precision
// of its instants, and how Evaluate answers at the boundaries it reported.
func checkInvariants(t must.T, c *Compiled, at time.Time) {
	t.Helper()
	r := c.Evaluate(at)
	where := func(what string) must.Setting { return must.Sprintf("%s at %s: %+v", what, at, r) }
	for _, x := range []time.Time{r.WindowStart, r.WindowEnd, r.NextStart, r.NextEnd} {
		if !x.IsZero() {
			must.EqOp(t, c.Location(), x.Location(), where("zone"))
			must.EqOp(t, 0, x.Nanosecond(), where("whole seconds"))
		}
	}
	if r.Inside {
		must.False(t, r.WindowStart.IsZero(), where("inside without start"))
		must.False(t, r.WindowStart.After(at), where("start after t"))
		must.True(t, r.WindowEnd.IsZero() || r.WindowEnd.After(at), where("end not after t"))
		if r.WindowEnd.IsZero() {
			must.True(t, r.NextStart.IsZero(), where("next after a window that never closes"))
		} else {
			must.True(t, r.NextStart.IsZero() || !r.NextStart.Before(r.WindowEnd), where("next before end"))
		}
		// The merged window reads the same from its first instant, and
		// from its last nanosecond.
		from := c.Evaluate(r.WindowStart)
		must.True(t, from.Inside, where("outside at WindowStart"))
		must.True(t, from.WindowStart.Equal(r.WindowStart) && from.WindowEnd.Equal(r.WindowEnd), where("window moved at WindowStart"))
		if !r.WindowEnd.IsZero() {
			last := c.Evaluate(r.WindowEnd.Add(-time.Nanosecond))
			must.True(t, last.Inside && last.WindowStart.Equal(r.WindowStart), where("window moved before WindowEnd"))
			// At WindowEnd, inside only if the next window starts there.
			atEnd := c.Evaluate(r.WindowEnd)
			must.EqOp(t, r.NextStart.Equal(r.WindowEnd), atEnd.Inside, where("inside at WindowEnd"))
		}
	} else {
		must.True(t, r.WindowStart.IsZero() && r.WindowEnd.IsZero(), where("window set while outside"))
		must.True(t, r.NextStart.IsZero() || r.NextStart.After(at), where("next start not after t"))
	}
	if r.NextStart.IsZero() {
		must.True(t, r.NextEnd.IsZero(), where("next end without next start"))
	} else {
		must.True(t, r.NextEnd.IsZero() || r.NextEnd.After(r.NextStart), where("next end not after next start"))
		// NextStart is the first start of its merged window.
		next := c.Evaluate(r.NextStart)
		must.True(t, next.Inside && next.WindowStart.Equal(r.NextStart) && next.WindowEnd.Equal(r.NextEnd), where("NextStart does not open NextStart..NextEnd"))
	}
	// NextWindows begins with the current window, else the next one, and
	// each window starts at or after the previous one's end.
	ws := c.NextWindows(at, 3)
	first := Window{Start: r.NextStart, End: r.NextEnd}
	if r.Inside {
		first = Window{Start: r.WindowStart, End: r.WindowEnd}
	}
	if first.Start.IsZero() {
		must.SliceEmpty(t, ws, where("windows without a start"))
		return
	}
	must.SliceNotEmpty(t, ws, where("no windows"))
	must.True(t, ws[0].Start.Equal(first.Start) && ws[0].End.Equal(first.End), where("first window"))
	for i := 1; i < len(ws); i++ {
		must.False(t, ws[i-1].End.IsZero(), where("window after one that never closes"))
		must.False(t, ws[i].Start.Before(ws[i-1].End), where("windows overlap"))
	}
	if len(ws) > 1 {
		must.True(t, ws[1].Start.Equal(r.NextStart) || !r.Inside, where("second window is not NextStart"))
	}
}

// drawAnyField draws any field form cronexpr accepts: lists, steps and the
// day specials included, values in [lo, hi].
func drawAnyField(t *rapid.T, label string, lo, hi int, specials []string) string {
	entry := func() string {
		a := rapid.IntRange(lo, hi).Draw(t, label+"A")
		b := rapid.IntRange(lo, hi).Draw(t, label+"B")
		step := rapid.IntRange(1, max(1, min(hi, 6))).Draw(t, label+"Step")
		forms := []string{"*", "?", itoa(a), itoa(a) + "-" + itoa(b), "*/" + itoa(step), itoa(a) + "/" + itoa(step), itoa(a) + "-" + itoa(b) + "/" + itoa(step)}
		forms = append(forms, specials...)
		return rapid.SampledFrom(forms).Draw(t, label+"Form")
	}
	n := rapid.IntRange(1, 3).Draw(t, label+"Entries")
	parts := make([]string, n)
	for i := range parts {
		parts[i] = entry()
	}
	return strings.Join(parts, ",")
}

func itoa(v int) string { return strconv.Itoa(v) }

// TestEvaluateInvariants runs checkInvariants over schedules the oracle
// cannot judge (seconds, steps, lists, L, W, #, macros) and over the
// property zones, from 1965 to 2105.
func TestEvaluateInvariants(t *testing.T) {
	withRapidChecks(t, map[bool]int{true: 200, false: 2_000}[raceEnabled])
	rapid.Check(t, func(rt *rapid.T) {
		name := rapid.SampledFrom(propertyZones).Draw(rt, "zone")
		loc := cachedZone(rt, name)
		var start string
		if rapid.IntRange(0, 9).Draw(rt, "macro") == 0 {
			start = rapid.SampledFrom([]string{"@daily", "@hourly", "@weekly", "@monthly", "@yearly"}).Draw(rt, "start")
		} else {
			fields := []string{
				drawAnyField(rt, "minute", 0, 59, nil),
				drawAnyField(rt, "hour", 0, 23, nil),
				drawAnyField(rt, "dom", 1, 31, []string{"L", "LW", "15W", "1W"}),
				drawAnyField(rt, "month", 1, 12, []string{"jan-mar", "DEC"}),
				drawAnyField(rt, "dow", 0, 7, []string{"5L", "1#2", "fri-sun", "0L"}),
			}
			if rapid.Bool().Draw(rt, "withSeconds") {
				fields = append([]string{drawAnyField(rt, "second", 0, 59, nil)}, fields...)
			}
			if rapid.Bool().Draw(rt, "withYear") {
				fields = append(fields, drawAnyField(rt, "year", 2020, 2030, nil))
			}
			start = strings.Join(fields, " ")
		}
		end := drawAnyField(rt, "endMinute", 0, 59, nil) + " " + drawAnyField(rt, "endHour", 0, 23, nil)
		if rapid.IntRange(0, 4).Draw(rt, "endSeconds") == 0 {
			end = drawAnyField(rt, "endSecond", 0, 59, nil) + " " + end
		}
		c, err := Compile(&Schedule{Cron: &Cron{Start: start, End: end, Timezone: name}}, nil)
		if err != nil {
			rt.Skipf("cronexpr rejects it: %v", err) // e.g. an interval past the field's max
		}
		at := drawInstant(rt, loc).Add(time.Duration(rapid.IntRange(-5*365, 5*365).Draw(rt, "shiftDays")) * 24 * time.Hour)
		checkInvariants(rt, c, at)
	})
}

// TestCompiledConcurrent shares one Compiled between goroutines (run with
// -race): every evaluation works on private cronexpr copies, and all agree.
func TestCompiledConcurrent(t *testing.T) {
	c, err := Compile(&Schedule{Cron: &Cron{Start: "0 9-17 * * MON-FRI *", End: "30 17", Timezone: "America/New_York"}}, nil)
	must.NoError(t, err)
	at := time.Date(2024, 3, 11, 14, 0, 0, 0, time.UTC)
	want := c.Evaluate(at)
	results := make(chan Result, 8)
	for range 8 {
		go func() {
			var r Result
			for i := range 50 {
				r = c.Evaluate(at.Add(time.Duration(i) * time.Hour))
				_ = c.NextWindows(at, 2)
				_, _ = Evaluate(&Schedule{Cron: &Cron{Start: "0 9 * * * *", End: "0 17", Timezone: "Europe/Berlin"}}, at, nil)
			}
			results <- c.Evaluate(at)
			_ = r
		}()
	}
	for range 8 {
		must.Eq(t, want, <-results)
	}
}
