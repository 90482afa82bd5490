package studycmd

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// chartFile is one chart of the report: its file name in the chart
// directory, its title and the SVG document.
type chartFile struct {
	file, title, svg string
}

// charts are the report's charts: RPCs and log entries against allocs
// per client, and the urgent latency distributions, each runner and
// number of clients a series.
func (st study) charts() []chartFile {
	rpc := chart{title: "Node.UpdateAlloc RPCs per client per second (median over seeds)",
		xLabel: "allocs per client", yLabel: "RPCs per client per second", xLog: true, markers: true}
	logs := chart{title: "Server log entries per second (median over seeds)",
		xLabel: "allocs per client", yLabel: "log entries per second", xLog: true, yLog: true, markers: true}
	lat := chart{title: "Urgent ClientStatus changes: latency to the server (CDF, pooled over allocs and seeds)",
		xLabel: "latency (ms)", yLabel: "share of changes", step: true}
	costA := chart{title: "Cost of a client against its allocs: wall ms per client per virtual minute (median over seeds)",
		xLabel: "allocs per client", yLabel: "wall ms per client per virtual minute", xLog: true, yLog: true, markers: true}
	costC := chart{title: "Cost of a client against the clients: wall ms per client per virtual minute (median over seeds)",
		xLabel: "clients", yLabel: "wall ms per client per virtual minute", xLog: true, yLog: true, markers: true}
	for ci, n := range st.clientCounts() {
		for k, runner := range []string{st.p.runner, st.p.baseline} {
			name := fmt.Sprintf("%s, %d client%s", runner, n, plural(n))
			s := series{name: name, color: palette[ci%len(palette)], dashed: k == 1}
			r, l, c := s, s, s
			var d Dist
			for _, cs := range st.cfgs {
				if cs.cfg.Clients != n {
					continue
				}
				f := cs.ref
				if k == 1 {
					f = cs.base
				}
				x := float64(cs.cfg.Allocs)
				r.pts = append(r.pts, pt{x, spreadOf(f.per(rpcRate)).med})
				l.pts = append(l.pts, pt{x, spreadOf(f.per(entryRate)).med})
				if cost := spreadOf(f.per(clientCost)).med; cost > 0 {
					c.pts = append(c.pts, pt{x, cost})
				}
				d.Merge(f.urgent)
			}
			rpc.series = append(rpc.series, r)
			logs.series = append(logs.series, l)
			if len(c.pts) > 0 {
				costA.series = append(costA.series, c)
			}
			if d.Count > 0 {
				s.pts = cdf(d)
				lat.series = append(lat.series, s)
			}
		}
	}
	for ai, m := range st.allocCounts() {
		for k, runner := range []string{st.p.runner, st.p.baseline} {
			s := series{name: fmt.Sprintf("%s, %d allocs", runner, m), color: palette[ai%len(palette)], dashed: k == 1}
			for _, cs := range st.cfgs {
				f := cs.ref
				if k == 1 {
					f = cs.base
				}
				if cost := spreadOf(f.per(clientCost)).med; cs.cfg.Allocs == m && cost > 0 {
					s.pts = append(s.pts, pt{float64(cs.cfg.Clients), cost})
				}
			}
			if len(s.pts) > 0 {
				slices.SortFunc(s.pts, func(a, b pt) int { return cmp.Compare(a.x, b.x) })
				costC.series = append(costC.series, s)
			}
		}
	}
	out := []chartFile{
		{file: "rpcs.svg", title: rpc.title, svg: rpc.render()},
		{file: "log-entries.svg", title: logs.title, svg: logs.render()},
		{file: "latency.svg", title: lat.title, svg: lat.render()},
	}
	if len(costA.series) > 0 {
		out = append(out, chartFile{file: "cost-allocs.svg", title: costA.title, svg: costA.render()},
			chartFile{file: "cost-clients.svg", title: costC.title, svg: costC.render()})
	}
	return out
}

// allocCounts are the grid's numbers of allocs per client, ascending.
func (st study) allocCounts() []int {
	var out []int
	for _, cs := range st.cfgs {
		if !slices.Contains(out, cs.cfg.Allocs) {
			out = append(out, cs.cfg.Allocs)
		}
	}
	slices.Sort(out)
	return out
}

// clientCounts are the grid's numbers of clients, ascending.
func (st study) clientCounts() []int {
	var out []int
	for _, cs := range st.cfgs {
		if !slices.Contains(out, cs.cfg.Clients) {
			out = append(out, cs.cfg.Clients)
		}
	}
	slices.Sort(out)
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// palette colors the numbers of clients, in ascending order.
var palette = []string{"#1f6feb", "#2e9e4f", "#cb2431", "#6f42c1", "#e36209", "#1b7c83"}

// cdf turns a histogram into the steps of its distribution function.
func cdf(d Dist) []pt {
	out := []pt{{0, 0}}
	sum := 0
	for k, n := range d.Hist {
		if n == 0 {
			continue
		}
		sum += n
		out = append(out, pt{float64(k), float64(sum) / float64(d.Count)})
	}
	return out
}

type pt struct{ x, y float64 }

type series struct {
	name   string
	color  string
	dashed bool
	pts    []pt
}

// chart is a line chart with linear or logarithmic axes.
type chart struct {
	title, xLabel, yLabel string
	xLog, yLog            bool
	markers, step         bool
	series                []series
}

// The chart's geometry, in user units.
const (
	chartW, chartH           = 940.0, 440.0
	plotL, plotR             = 70.0, 620.0
	plotT, plotB             = 40.0, 390.0
	legendX, legendY, legend = 640.0, 50.0, 18.0
)

// axis maps data values to one dimension of the plot.
type axis struct {
	lo, hi   float64
	log      bool
	from, to float64 // plot coordinates of lo and hi
}

func (a axis) at(v float64) float64 {
	f := (v - a.lo) / (a.hi - a.lo)
	if a.log {
		f = (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	}
	return a.from + min(max(f, 0), 1)*(a.to-a.from)
}

// newAxis spans vs (with 0 on a linear axis) and picks its ticks.
func newAxis(vs []float64, log bool, from, to float64) (axis, []float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if log && v <= 0 || math.IsNaN(v) {
			continue
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1, 10
	}
	if !log {
		step := niceStep(hi / 8)
		hi = math.Ceil(hi/step) * step
		if hi <= 0 {
			hi = 1
		}
		var ticks []float64
		for v := 0.0; v <= hi+step/2; v += step {
			ticks = append(ticks, v)
		}
		return axis{lo: 0, hi: hi, from: from, to: to}, ticks
	}
	lo, hi = math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
	if lo == hi {
		hi = lo * 10
	}
	var ticks []float64
	for p := lo; p <= hi*1.0001; p *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if v := p * m; v <= hi*1.0001 {
				ticks = append(ticks, v)
			}
		}
	}
	return axis{lo: lo, hi: hi, log: true, from: from, to: to}, ticks
}

// niceStep rounds v up to 1, 2 or 5 times a power of ten.
func niceStep(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// render writes the chart as one self-contained SVG document.
func (c chart) render() string {
	var xs, ys []float64
	for _, s := range c.series {
		for _, p := range s.pts {
			xs, ys = append(xs, p.x), append(ys, p.y)
		}
	}
	xa, xt := newAxis(xs, c.xLog, plotL, plotR)
	ya, yt := newAxis(ys, c.yLog, plotB, plotT)
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	w(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="11">`+"\n",
		num(chartW), num(chartH), num(chartW), num(chartH))
	w(`<rect width="100%%" height="100%%" fill="#fff"/>` + "\n")
	w(`<text x="%s" y="22" font-size="13" font-weight="bold">%s</text>`+"\n", num(plotL), esc(c.title))
	for _, v := range xt {
		x := xa.at(v)
		w(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#d1d5da"/>`+"\n", num(x), num(plotT), num(x), num(plotB))
		w(`<text x="%s" y="%s" text-anchor="middle" fill="#444">%s</text>`+"\n", num(x), num(plotB+16), tick(v))
	}
	for _, v := range yt {
		y := ya.at(v)
		w(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#d1d5da"/>`+"\n", num(plotL), num(y), num(plotR), num(y))
		w(`<text x="%s" y="%s" text-anchor="end" fill="#444">%s</text>`+"\n", num(plotL-6), num(y+4), tick(v))
	}
	w(`<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#586069"/>`+"\n",
		num(plotL), num(plotT), num(plotR-plotL), num(plotB-plotT))
	w(`<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", num((plotL+plotR)/2), num(plotB+36), esc(c.xLabel))
	w(`<text x="16" y="%s" text-anchor="middle" transform="rotate(-90 16 %s)">%s</text>`+"\n",
		num((plotT+plotB)/2), num((plotT+plotB)/2), esc(c.yLabel))
	for i, s := range c.series {
		dash := ""
		if s.dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		var path []string
		for k, p := range s.pts {
			x, y := xa.at(p.x), ya.at(p.y)
			if c.step && k > 0 {
				path = append(path, num(x)+","+num(ya.at(s.pts[k-1].y)))
			}
			path = append(path, num(x)+","+num(y))
		}
		w(`<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"><title>%s</title></polyline>`+"\n",
			s.color, dash, strings.Join(path, " "), esc(s.name))
		if c.markers {
			fill := s.color
			if s.dashed {
				fill = "#fff"
			}
			for _, p := range s.pts {
				w(`<circle cx="%s" cy="%s" r="3.5" fill="%s" stroke="%s"><title>%s: %s</title></circle>`+"\n",
					num(xa.at(p.x)), num(ya.at(p.y)), fill, s.color, esc(s.name), esc(tick(p.x)+", "+tick(p.y)))
			}
		}
		ly := legendY + float64(i)*legend
		w(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"%s/>`+"\n",
			num(legendX), num(ly), num(legendX+28), num(ly), s.color, dash)
		w(`<text x="%s" y="%s">%s</text>`+"\n", num(legendX+34), num(ly+4), esc(s.name))
	}
	w("</svg>\n")
	return b.String()
}

// num prints a coordinate with one decimal.
func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// tick prints an axis value: integers plainly, else up to 3 significant
// digits.
func tick(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e9 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// esc escapes text for XML character data and attribute values.
func esc(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")
	return r.Replace(s)
}
