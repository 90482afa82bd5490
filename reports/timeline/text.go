package timeline

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Sequence numbers that order the computed lines of an instant before
// its trace records: a window closes, then the next opens, then the
// runner reacts.
const (
	seqWindowClose = -3
	seqWindowOpen  = -2
	seqSchedule    = -1
)

// textLine is one line of the text timeline before formatting.
type textLine struct {
	at      time.Time
	seq     int
	zone    *time.Location
	subject string
	text    string
}

// WriteText writes the compact text timeline: a header (the run, its
// span, each lane and its schedule), then one line per notable thing in
// time order, "<UTC> <offset from start> <local time> <subject> <what>",
// under a line naming each new UTC date.
func (tl *Timeline) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "timeline %s seed %d", tl.Scenario, tl.Seed)
	if tl.Runner != "" {
		fmt.Fprintf(&b, " runner %s", tl.Runner)
	}
	fmt.Fprintf(&b, "\n%s .. %s (%s), client zone %s\n", tl.Start.Format(rfc3339ms), tl.End.Format(rfc3339ms),
		tl.End.Sub(tl.Start).Round(time.Millisecond), zoneName(tl.Local))
	for _, l := range tl.Lanes {
		fmt.Fprintf(&b, "lane %s alloc %s", l.Name(), short(l.AllocID))
		if len(l.Schedules) == 0 {
			b.WriteString(", unscheduled")
		} else {
			fmt.Fprintf(&b, ", schedule %s", describe(l.Schedules[0], l.Zone))
		}
		if l.ScheduleError != "" {
			fmt.Fprintf(&b, " (cannot evaluate: %s)", l.ScheduleError)
		}
		if l.WindowsTruncated {
			fmt.Fprintf(&b, " (first %d windows)", len(l.Windows))
		}
		b.WriteString("\n")
	}
	lines := tl.textLines()
	width := 0
	for _, ln := range lines {
		width = max(width, len(ln.subject))
	}
	date := ""
	for _, ln := range lines {
		if d := ln.at.UTC().Format("2006-01-02"); d != date {
			fmt.Fprintf(&b, "--- %s\n", d)
			date = d
		}
		fmt.Fprintf(&b, "%s %-11s %-12s %-*s %s\n", utcClock(ln.at), offset(ln.at.Sub(tl.Start)),
			localClock(ln.at, ln.zone), width, ln.subject, ln.text)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write text timeline: %w", err)
	}
	return nil
}

const rfc3339ms = "2006-01-02T15:04:05.000Z07:00"

// describe prints a schedule span's cron block.
func describe(s ScheduleSpan, zone *time.Location) string {
	c := s.Schedule.Cron
	if c == nil {
		return "without cron"
	}
	return fmt.Sprintf("%q to %q in %s", c.Start, c.End, zoneName(zone))
}

// maxText is the longest message a line quotes; a violation is quoted
// whole.
const (
	maxText          = 72
	violationSubject = "VIOLATION"
)

// textLines collects every line, sorted by (instant, trace order).
func (tl *Timeline) textLines() []textLine {
	var out []textLine
	add := func(at time.Time, seq int, zone *time.Location, subject, text string) {
		if subject != violationSubject {
			text = clip(text, maxText)
		}
		out = append(out, textLine{at: at, seq: seq, zone: zone, subject: subject, text: text})
	}
	for _, n := range tl.Notes {
		add(n.At, n.seq, tl.Local, n.Subject, n.Text)
	}
	for _, l := range tl.Lanes {
		tl.laneLines(l, add)
	}
	lastSend := time.Time{}
	for _, r := range tl.RPCs {
		text := ""
		switch {
		case strings.HasPrefix(r.Op, "Allocations."):
			continue // the api line says it
		case r.Sync() && r.Phase == "send":
			lastSend = r.At
			text = "UpdateAlloc send"
			if r.Detail != "" {
				text += ": " + r.Detail
			}
		case r.Sync() && r.Phase == "deliver":
			if !r.At.After(lastSend) {
				continue
			}
			text = "UpdateAlloc delivered " + r.At.Sub(lastSend).Round(time.Millisecond).String() + " after the send"
		case r.Sync() && r.Phase == "reply":
			text = "UpdateAlloc reply, " + r.Detail
		case r.Phase == "fail":
			text = r.Op + " FAILED: " + r.Detail
		case !r.Sync() && r.Phase == "send":
			text = r.Op + " send"
		default:
			continue
		}
		add(r.At, r.seq, tl.Local, "node", text)
	}
	for _, m := range tl.Marks {
		subject := string(m.Kind)
		switch m.Kind {
		case MarkCrash, MarkRestart:
			subject = "client"
		case MarkViolation:
			subject = violationSubject
		}
		add(m.At, m.seq, tl.Local, subject, m.Label)
	}
	slices.SortStableFunc(out, func(a, b textLine) int { return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.seq, b.seq)) })
	return out
}

// laneLines adds a lane's windows, schedule changes, states, calls and
// events.
func (tl *Timeline) laneLines(l Lane, add func(time.Time, int, *time.Location, string, string)) {
	name := l.Name()
	for i, s := range l.Schedules {
		if i > 0 {
			add(s.From, seqSchedule, l.Zone, name, "schedule now "+describe(s, l.Zone))
		}
	}
	for _, w := range l.Windows {
		label := windowLabel(w, "-")
		switch {
		case w.Opens():
			add(w.Start, seqWindowOpen, l.Zone, name, "window opens "+label)
		default:
			add(w.From, seqWindowOpen, l.Zone, name, "inside window "+label)
		}
		if w.Closes() {
			add(w.End, seqWindowClose, l.Zone, name, "window closes "+label)
		}
	}
	for _, g := range l.States {
		text := "state " + g.State
		if g.Paused != "" {
			text += ", " + g.Paused
		}
		if g.Restarts > 0 {
			text += fmt.Sprintf(", restarts %d", g.Restarts)
		}
		if g.Failed {
			text += ", failed"
		}
		add(g.From, g.seq, l.Zone, name, text)
	}
	for _, c := range l.Calls {
		text := "api " + c.Op
		if c.State != "" {
			text += " " + c.State
		}
		if c.Error != "" {
			text += ": error: " + c.Error
		} else {
			text += ": ok"
		}
		add(c.At, c.seq, l.Zone, name, text)
	}
	for _, e := range l.Events {
		text := "event " + e.Type
		if e.Display != "" && e.Display != e.Type {
			text += ": " + e.Display
		}
		if e.FailsTask {
			text += " (fails task)"
		}
		add(e.At, e.seq, l.Zone, name, text)
	}
}
