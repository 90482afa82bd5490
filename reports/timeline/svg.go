package timeline

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// The SVG's geometry, in user units (pixels at 100%).
const (
	svgWidth  = 1200.0
	plotLeft  = 210.0
	plotRight = 1180.0
	rowH      = 14.0
	nodeH     = 44.0
	laneH     = 52.0
	maxZones  = 3
	// legendRowH is the height of one legend row (the legend wraps
	// once).
	legendRowH = 16.0
)

// svgStyle is scoped to svg.timeline: an SVG inlined in HTML shares the
// page's style sheet.
const svgStyle = `svg.timeline{font-family:sans-serif;font-size:11px;background:#fff}
svg.timeline .title{font-size:13px;font-weight:bold}
svg.timeline .axis-label{font-size:10px;fill:#444}
svg.timeline .zone-label{font-size:10px;fill:#586069;font-style:italic}
svg.timeline .grid{stroke:#d1d5da;stroke-width:1}
svg.timeline .lane-bg{fill:#f6f8fa}
svg.timeline .lane-bg.odd{fill:#fff}
svg.timeline .lane-name{font-weight:bold}
svg.timeline .lane-sub{font-size:9px;fill:#586069}
svg.timeline .window,svg.timeline .legend-window{fill:#cfe3ff;opacity:.85}
svg.timeline .window-label{font-size:9px;fill:#0b4f9c}
svg.timeline .state-pending{fill:#f0b429}
svg.timeline .state-running{fill:#2e9e4f}
svg.timeline .state-dead{fill:#9aa5b1}
svg.timeline .state.failed,svg.timeline .legend-failed{fill:#cb2431}
svg.timeline .paused-scheduled_pause{fill:#b392f0}
svg.timeline .paused-force_pause{fill:#5a32a3}
svg.timeline .paused-force_run{fill:#1b7c83}
svg.timeline .event,svg.timeline .legend-event{fill:#24292e}
svg.timeline .event.fails-task{fill:#cb2431}
svg.timeline .pause,svg.timeline .legend-pause{fill:#6f42c1}
svg.timeline .api{fill:#586069}
svg.timeline .pause.error,svg.timeline .api.error{stroke:#cb2431;stroke-width:1.5}
svg.timeline .rpc-send,svg.timeline .legend-rpc-send{fill:#1f6feb}
svg.timeline .rpc-deliver,svg.timeline .rpc-reply{fill:#79b8ff}
svg.timeline .rpc-fail,svg.timeline .legend-rpc-fail{fill:#d73a49}
svg.timeline .rpc-other{fill:#959da5}
svg.timeline .rpc-other-fail{fill:#d73a49}
svg.timeline .down,svg.timeline .legend-down{fill:#24292e;opacity:.1}
svg.timeline .fault,svg.timeline .legend-fault{stroke:#e36209;stroke-width:1.5;stroke-dasharray:4 3}
svg.timeline .crash,svg.timeline .legend-crash{stroke:#24292e;stroke-width:2.5}
svg.timeline .restart,svg.timeline .legend-restart{stroke:#24292e;stroke-width:1.5;stroke-dasharray:2 2}
svg.timeline .violation,svg.timeline .legend-violation{stroke:#d00000;stroke-width:2.5}
svg.timeline .violation-label{fill:#d00000;font-weight:bold;font-size:10px}
`

// WriteSVG writes the timeline as one self-contained SVG document: no
// scripts, no external references, a style sheet scoped to svg.timeline.
func (tl *Timeline) WriteSVG(w io.Writer) error {
	s := &svgWriter{tl: tl, span: float64(tl.End.Sub(tl.Start))}
	if s.span <= 0 {
		s.span = float64(time.Second)
	}
	s.render()
	if _, err := w.Write(s.b.Bytes()); err != nil {
		return fmt.Errorf("write timeline svg: %w", err)
	}
	return nil
}

type svgWriter struct {
	b    bytes.Buffer
	tl   *Timeline
	span float64
}

func (s *svgWriter) printf(format string, args ...any) { fmt.Fprintf(&s.b, format, args...) }

// x is an instant's abscissa, clamped to the plot.
func (s *svgWriter) x(t time.Time) float64 {
	f := float64(t.Sub(s.tl.Start)) / s.span
	return plotLeft + min(max(f, 0), 1)*(plotRight-plotLeft)
}

// num prints a coordinate with one decimal, the same on every platform.
func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// esc escapes text for XML character data and attribute values.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder never fails
	return b.String()
}

// clip shortens a label to n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// when is a tooltip's instant: UTC and, unless UTC, in loc.
func when(t time.Time, loc *time.Location) string {
	s := t.UTC().Format(trace3339)
	if loc != nil && zoneName(loc) != "UTC" {
		s += " (" + localClock(t, loc) + ")"
	}
	return s
}

const trace3339 = "2006-01-02T15:04:05.000Z"

// rect writes a rectangle of at least 1 unit width with a tooltip.
func (s *svgWriter) rect(cls string, x0, x1, y, h float64, title string) {
	s.printf(`<rect class="%s" x="%s" y="%s" width="%s" height="%s"><title>%s</title></rect>`+"\n",
		cls, num(x0), num(y), num(max(x1-x0, 1)), num(h), esc(title))
}

func (s *svgWriter) vline(cls string, x, y0, y1 float64, title string) {
	s.printf(`<line class="%s" x1="%s" y1="%s" x2="%s" y2="%s"><title>%s</title></line>`+"\n",
		cls, num(x), num(y0), num(x), num(y1), esc(title))
}

func (s *svgWriter) text(cls string, x, y float64, text string) {
	s.printf(`<text class="%s" x="%s" y="%s">%s</text>`+"\n", cls, num(x), num(y), esc(text))
}

func (s *svgWriter) render() {
	tl := s.tl
	zones := tl.zones()
	if len(zones) > maxZones {
		zones = zones[:maxZones]
	}
	axisTop := 30.0
	axisY := axisTop + float64(1+len(zones))*rowH + 4
	nodeY := axisY + 4
	lanesY := nodeY + nodeH + 4
	bottom := lanesY + float64(len(tl.Lanes))*laneH
	height := bottom + 26 + 2*legendRowH + 4
	title := fmt.Sprintf("%s · seed %d · runner %s · %s + %s", tl.Scenario, tl.Seed, tl.Runner,
		tl.Start.Format(trace3339), tl.End.Sub(tl.Start).Round(time.Millisecond))
	s.printf(`<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="%s" height="%s" viewBox="0 0 %s %s" role="img">`+"\n",
		num(svgWidth), num(height), num(svgWidth), num(height))
	s.printf("<title>timeline %s</title>\n<style>\n%s</style>\n", esc(title), svgStyle)
	s.text("title", 8, 18, title)

	s.rect("lane-bg", 0, svgWidth, nodeY, nodeH, "node")
	for i := range tl.Lanes {
		cls := "lane-bg"
		if i%2 == 1 {
			cls += " odd"
		}
		s.rect(cls, 0, svgWidth, lanesY+float64(i)*laneH, laneH, tl.Lanes[i].Name())
	}
	s.axis(zones, axisTop, axisY, bottom)
	s.down(nodeY, bottom)
	for i, l := range tl.Lanes {
		s.lane(l, lanesY+float64(i)*laneH)
	}
	s.node(nodeY)
	s.marks(axisY, bottom)
	s.legend(bottom + 26)
	s.printf("</svg>\n")
}

// axis writes a label row per zone (UTC first) and the grid.
func (s *svgWriter) axis(zones []*time.Location, top, axisY, bottom float64) {
	tl := s.tl
	step := tickStep(tl.End.Sub(tl.Start))
	ts := ticks(tl.Start, tl.End, step)
	rows := append([]*time.Location{time.UTC}, zones...)
	for i, loc := range rows {
		y := top + float64(i)*rowH + 10
		name := zoneName(loc)
		if loc == tl.Local && name != "UTC" {
			name += " (client)"
		}
		s.text("zone-label", 8, y, name)
		for j, label := range tickLabels(ts, step, loc) {
			x := s.x(ts[j])
			if x+2+float64(len(label))*5.5 > svgWidth-4 {
				s.printf(`<text class="axis-label" x="%s" y="%s" text-anchor="end">%s</text>`+"\n", num(x-2), num(y), esc(label))
				continue
			}
			s.text("axis-label", x+2, y, label)
		}
	}
	for _, t := range ts {
		s.vline("grid", s.x(t), axisY, bottom, when(t, tl.Local))
	}
}

// down shades the client's down time: each crash to the next restart.
func (s *svgWriter) down(top, bottom float64) {
	for i, m := range s.tl.Marks {
		if m.Kind != MarkCrash {
			continue
		}
		end := s.tl.End
		for _, n := range s.tl.Marks[i+1:] {
			if n.Kind == MarkRestart {
				end = n.At
				break
			}
		}
		s.rect("down", s.x(m.At), s.x(end), top, bottom-top,
			fmt.Sprintf("client down %s to %s", when(m.At, s.tl.Local), when(end, s.tl.Local)))
	}
}

func (s *svgWriter) lane(l Lane, y float64) {
	zone := zoneName(l.Zone)
	s.text("lane-name", 8, y+16, clip(l.Name(), 30))
	sub := short(l.AllocID)
	if len(l.Schedules) > 0 {
		sub += " · " + zone
	}
	s.text("lane-sub", 8, y+29, sub)
	if len(l.Schedules) > 0 {
		c := l.Schedules[0].Schedule.Cron
		if c != nil {
			s.text("lane-sub", 8, y+41, clip(fmt.Sprintf("%q to %q", c.Start, c.End), 38))
		}
	}
	labelEnd := 0.0
	for _, w := range l.Windows {
		x0, x1 := s.x(w.From), s.x(w.To)
		label := windowLabel(w, "–")
		s.rect("window", x0, x1, y+1, laneH-2, fmt.Sprintf("window %s (%s to %s)", label, when(w.Start, nil), endOf(w)))
		if width := float64(len([]rune(label))) * 5.2; x0 >= labelEnd {
			s.text("window-label", x0+2, y+10, label)
			labelEnd = x0 + 2 + width + 6
		}
	}
	for _, g := range l.States {
		cls := "state " + class("state-", g.State)
		what := g.State
		if g.Failed {
			cls += " failed"
			what += ", failed"
		}
		if g.Restarts > 0 {
			what += fmt.Sprintf(", restarts %d", g.Restarts)
		}
		if g.Paused != "" {
			what += ", " + g.Paused
		}
		s.rect(cls, s.x(g.From), s.x(g.To), y+21, 14, fmt.Sprintf("%s from %s to %s", what, when(g.From, l.Zone), when(g.To, l.Zone)))
		if g.Paused != "" {
			s.rect("paused "+class("paused-", g.Paused), s.x(g.From), s.x(g.To), y+36, 4, g.Paused+" from "+when(g.From, l.Zone))
		}
	}
	for _, e := range l.Events {
		cls := "event"
		if e.FailsTask {
			cls += " fails-task"
		}
		text := e.Type
		if e.Display != "" {
			text += ": " + e.Display
		}
		x := s.x(e.At)
		s.rect(cls, x-1, x+1, y+13, 7, when(e.At, l.Zone)+" "+text)
	}
	for _, c := range l.Calls {
		cls := "api"
		if c.Override() {
			cls = "pause"
		}
		text := "api " + c.Op
		if c.State != "" {
			text += " " + c.State
		}
		if c.Error != "" {
			cls += " error"
			text += ": error: " + c.Error
		} else {
			text += ": ok"
		}
		x := s.x(c.At)
		s.printf(`<polygon class="%s" points="%s,%s %s,%s %s,%s"><title>%s</title></polygon>`+"\n", cls,
			num(x), num(y+41), num(x-4.5), num(y+50), num(x+4.5), num(y+50), esc(when(c.At, l.Zone)+" "+text))
	}
}

func endOf(w Window) string {
	if w.End.IsZero() {
		return "never"
	}
	return when(w.End, nil)
}

// node writes the node lane: Node.UpdateAlloc on the first row, the
// other RPCs on the second.
func (s *svgWriter) node(y float64) {
	s.text("lane-name", 8, y+16, "node")
	s.text("lane-sub", 70, y+16, opUpdateAlloc)
	s.text("lane-sub", 70, y+38, "other RPCs")
	lastSend := time.Time{}
	for _, r := range s.tl.RPCs {
		x := s.x(r.At)
		title := when(r.At, s.tl.Local) + " " + r.Op + " " + r.Phase
		if r.Detail != "" {
			title += ": " + r.Detail
		}
		switch {
		case !r.Sync():
			if r.Phase == "send" || r.Phase == "forward" || r.Phase == "fail" {
				s.rect("rpc rpc-other "+class("rpc-other-", r.Phase), x-0.5, x+0.5, y+28, 12, title)
			}
		case r.Phase == "send":
			lastSend = r.At
			s.rect("rpc rpc-send", x-1, x+1, y+4, 18, title)
		case r.Phase == "fail":
			s.rect("rpc rpc-fail", x-1, x+1, y+4, 18, title)
		case r.Phase == "reply":
			s.rect("rpc rpc-reply", x-0.5, x+0.5, y+14, 8, title)
		case r.Phase == "deliver" && r.At.After(lastSend):
			s.rect("rpc rpc-deliver", x-0.5, x+0.5, y+16, 6, title)
		}
	}
}

// marks draws faults, crashes, restarts and violations across the lanes.
func (s *svgWriter) marks(top, bottom float64) {
	for _, m := range s.tl.Marks {
		x := s.x(m.At)
		s.vline("mark "+string(m.Kind), x, top, bottom, when(m.At, s.tl.Local)+" "+m.Label)
		if m.Kind == MarkViolation {
			label := "violation @" + m.At.UTC().Format(trace3339)
			if x > plotRight-220 {
				s.printf(`<text class="violation-label" x="%s" y="%s" text-anchor="end">%s</text>`+"\n", num(x-3), num(bottom+12), esc(label))
			} else {
				s.text("violation-label", x+3, bottom+12, label)
			}
		}
	}
}

// legend explains the marks, one swatch each.
func (s *svgWriter) legend(y float64) {
	x := 8.0
	item := func(label string, draw func(x, y float64)) {
		width := 14 + float64(len(label))*5.2 + 14
		if x+width > svgWidth-8 {
			x, y = 8, y+legendRowH
		}
		draw(x, y)
		s.text("lane-sub", x+14, y+9, label)
		x += width
	}
	swatch := func(cls string) func(x, y float64) {
		return func(x, y float64) { s.rect("swatch "+cls, x, x+10, y, 10, cls) }
	}
	line := func(cls string) func(x, y float64) {
		return func(x, y float64) { s.vline(cls, x+5, y-1, y+11, cls) }
	}
	item("running", swatch("state-running"))
	item("pending", swatch("state-pending"))
	item("dead", swatch("state-dead"))
	item("failed", swatch("legend-failed"))
	item("schedule window", swatch("legend-window"))
	item("scheduled pause", swatch("paused-scheduled_pause"))
	item("force_pause", swatch("paused-force_pause"))
	item("force_run", swatch("paused-force_run"))
	item("pause call", swatch("legend-pause"))
	item("task event", swatch("legend-event"))
	item("UpdateAlloc send", swatch("legend-rpc-send"))
	item("RPC failure", swatch("legend-rpc-fail"))
	item("client down", swatch("legend-down"))
	item("fault", line("legend-fault"))
	item("crash", line("legend-crash"))
	item("restart", line("legend-restart"))
	item("violation", line("legend-violation"))
}
