package schedulecmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// What the report shows for a time that does not exist: a window that
// never closes, a start that never comes.
const (
	stampNever = "never"
	stampNone  = "none"
)

// writeHuman renders rep as text: the schedule and zone, inside or not,
// then the times that matter in the zone's local time and in UTC, then the
// --next table.
//
//	Schedule: start "30 21 * * * *", end "15 3"
//	Timezone: America/New_York
//	Status:   inside: the task may run now
//
//	              LOCAL                          UTC
//	at            2024-03-10 03:30 EDT (-04:00)  2024-03-10 07:30 UTC
//	window start  2024-03-09 21:30 EST (-05:00)  2024-03-10 02:30 UTC
//	...
func writeHuman(w io.Writer, rep report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "Schedule: start %q, end %q\n", rep.start, rep.end)
	fmt.Fprintf(bw, "Timezone: %s\n", rep.zoneName)
	fmt.Fprintf(bw, "Status:   %s\n\n", status(rep))

	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\tLOCAL\tUTC\n")
	row := func(label string, t time.Time, zero string) {
		if t.IsZero() {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", label, zero, zero)
			return
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", label, localStamp(t, rep.zone), utcStamp(t))
	}
	row("at", rep.at, "")
	res := rep.result
	if res.Inside {
		row("window start", res.WindowStart, stampNone)
		row("window end", res.WindowEnd, stampNever)
	}
	row("next start", res.NextStart, stampNone)
	if !res.NextStart.IsZero() {
		row("next end", res.NextEnd, stampNever)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if rep.listNext {
		writeTable(bw, rep)
	}
	return bw.Flush()
}

// status is the one-line verdict.
func status(rep report) string {
	res := rep.result
	switch {
	case res.Inside && res.WindowEnd.IsZero():
		return "inside: the task may run now; the window never closes"
	case res.Inside:
		return "inside: the task may run now"
	case res.NextStart.IsZero():
		return "outside: no future start, the task stays paused"
	default:
		return "outside: the task is paused until the next start"
	}
}

// writeTable renders the --next windows, one per line.
func writeTable(w io.Writer, rep report) {
	if rep.result.Inside {
		fmt.Fprintf(w, "\nNext %d %s, from the current one:\n", rep.want, plural(rep.want, "window", "windows"))
	} else {
		fmt.Fprintf(w, "\nNext %d %s:\n", rep.want, plural(rep.want, "window", "windows"))
	}
	if len(rep.windows) > 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "#\tSTART (LOCAL)\tEND (LOCAL)\tSTART (UTC)\tEND (UTC)\tLENGTH\n")
		for i, win := range rep.windows {
			end, endUTC, length := stampNever, stampNever, stampNever
			if !win.End.IsZero() {
				end, endUTC = localStamp(win.End, rep.zone), utcStamp(win.End)
				length = win.End.Sub(win.Start).String()
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", i+1,
				localStamp(win.Start, rep.zone), end, utcStamp(win.Start), endUTC, length)
		}
		_ = tw.Flush() // the bufio.Writer underneath reports errors on its Flush
	}
	switch n := len(rep.windows); {
	case n == 0 && rep.want > 0:
		fmt.Fprintf(w, "None: the schedule has no future start.\n")
	case n < rep.want:
		fmt.Fprintf(w, "Only %d %s: the schedule has no later start.\n", n, plural(n, "window", "windows"))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// localStamp is t in zone with its abbreviation and offset:
// "2024-03-10 03:30 EDT (-04:00)". Seconds show only when not zero.
func localStamp(t time.Time, zone *time.Location) string {
	t = t.In(zone)
	return t.Format(dateLayout(t) + " MST (-07:00)")
}

// utcStamp is t in UTC: "2024-03-10 07:30 UTC".
func utcStamp(t time.Time) string {
	t = t.UTC()
	return t.Format(dateLayout(t)) + " UTC"
}

// dateLayout drops seconds for whole minutes (every window edge); --at may
// carry seconds, which are shown (sub-second digits only in JSON).
func dateLayout(t time.Time) string {
	if t.Second() == 0 && t.Nanosecond() == 0 {
		return "2006-01-02 15:04"
	}
	return "2006-01-02 15:04:05"
}

// jsonReport is the --json object. Field order is the documented one.
type jsonReport struct {
	Inside      bool         `json:"inside"`
	WindowStart *string      `json:"window_start"`
	WindowEnd   *string      `json:"window_end"`
	NextStart   *string      `json:"next_start"`
	NextEnd     *string      `json:"next_end"`
	Windows     []jsonWindow `json:"windows,omitzero"`
}

type jsonWindow struct {
	Start *string `json:"start"`
	End   *string `json:"end"`
}

// instant is t in UTC as RFC 3339 with a trailing Z, nil (null) when zero.
func instant(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339Nano)
	return &s
}

// writeJSON prints exactly one object on one line. "windows" is present
// (possibly []) only when --next was given.
func writeJSON(w io.Writer, rep report) error {
	res := rep.result
	out := jsonReport{
		Inside:    res.Inside,
		NextStart: instant(res.NextStart),
		NextEnd:   instant(res.NextEnd),
	}
	if res.Inside {
		out.WindowStart, out.WindowEnd = instant(res.WindowStart), instant(res.WindowEnd)
	}
	if rep.listNext {
		out.Windows = make([]jsonWindow, 0, len(rep.windows))
		for _, win := range rep.windows {
			out.Windows = append(out.Windows, jsonWindow{Start: instant(win.Start), End: instant(win.End)})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
