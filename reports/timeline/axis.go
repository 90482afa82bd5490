package timeline

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// tickSteps are the axis steps, the first that gives at most maxTicks
// ticks is taken.
var tickSteps = []time.Duration{
	10 * time.Millisecond, 20 * time.Millisecond, 50 * time.Millisecond,
	100 * time.Millisecond, 200 * time.Millisecond, 500 * time.Millisecond,
	time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
	time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour,
	24 * time.Hour, 48 * time.Hour, 7 * 24 * time.Hour,
}

const maxTicks = 8

// tickStep is the axis step for a span.
func tickStep(span time.Duration) time.Duration {
	for _, s := range tickSteps {
		if span/s <= maxTicks {
			return s
		}
	}
	day := 24 * time.Hour
	return (span/maxTicks/day + 1) * day
}

// ticks are the instants in [start, end] that are whole multiples of
// step (counted from UTC's zero time, so steps of hours fall on UTC
// hours).
func ticks(start, end time.Time, step time.Duration) []time.Time {
	first := start.Truncate(step)
	if first.Before(start) {
		first = first.Add(step)
	}
	var out []time.Time
	for t := first; !t.After(end); t = t.Add(step) {
		out = append(out, t)
	}
	return out
}

// tickLabels labels ticks in loc: the clock at the step's precision,
// with the date on the first tick and where the date changes, and the
// zone's abbreviation on the first tick and where it changes.
func tickLabels(ts []time.Time, step time.Duration, loc *time.Location) []string {
	layout := "15:04"
	switch {
	case step < time.Second:
		layout = "15:04:05.000"
	case step < time.Minute:
		layout = "15:04:05"
	}
	out := make([]string, len(ts))
	var lastDate, lastZone string
	for i, t := range ts {
		l := t.In(loc)
		s := l.Format(layout)
		if d := l.Format("Jan 2"); d != lastDate {
			s, lastDate = d+" "+s, d
		}
		if z := l.Format("MST"); z != lastZone && loc != time.UTC {
			s, lastZone = s+" "+z, z
		}
		out[i] = s
	}
	return out
}

// utcClock prints a virtual instant's UTC time of day to the
// millisecond, "00:04:10.000Z".
func utcClock(t time.Time) string { return t.UTC().Format("15:04:05.000Z") }

// localClock prints an instant's time of day in loc, "19:04:10 EST".
func localClock(t time.Time, loc *time.Location) string { return t.In(loc).Format("15:04:05 MST") }

// windowLabel is a window's bounds in its zone, "19:01-19:02 EST".
func windowLabel(w Window, dash string) string {
	start := w.Start
	if w.End.IsZero() {
		return "from " + start.Format("15:04 MST") + " (never closes)"
	}
	end := w.End.In(start.Location())
	layout := "15:04"
	if end.Sub(start) >= 24*time.Hour {
		layout = "Jan 2 15:04"
	}
	if start.Format("MST") != end.Format("MST") {
		return start.Format(layout+" MST") + dash + end.Format(layout+" MST")
	}
	return start.Format(layout) + dash + end.Format(layout+" MST")
}

// offset prints d as "+4m10.000s" or "+1h02m03.000s", truncated to the
// millisecond.
func offset(d time.Duration) string {
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	ms := d.Milliseconds()
	h, m, s, frac := ms/3_600_000, ms/60_000%60, ms/1000%60, ms%1000
	if h > 0 {
		return fmt.Sprintf("%s%dh%02dm%02d.%03ds", sign, h, m, s, frac)
	}
	return fmt.Sprintf("%s%dm%02d.%03ds", sign, m, s, frac)
}

// zoneName is a zone's name for labels.
func zoneName(loc *time.Location) string {
	if loc == nil {
		return "UTC"
	}
	return loc.String()
}

// zones are the distinct zones of the client and the lanes, the
// client's first, then the lanes' in lane order, UTC left out.
func (tl *Timeline) zones() []*time.Location {
	var out []*time.Location
	seen := map[string]bool{"UTC": true}
	add := func(loc *time.Location) {
		if loc != nil && !seen[loc.String()] {
			seen[loc.String()] = true
			out = append(out, loc)
		}
	}
	add(tl.Local)
	for _, l := range tl.Lanes {
		add(l.Zone)
	}
	return out
}

var unsafeClass = regexp.MustCompile(`[^a-z0-9_-]+`)

// class makes a CSS class token of a trace value.
func class(prefix, value string) string {
	return prefix + unsafeClass.ReplaceAllString(strings.ToLower(value), "_")
}
