package schedule

import (
	"fmt"
	"strings"
	"time"

	"pgregory.net/rapid"
)

// This file generates random cron blocks from field generators and keeps,
// beside each field's text, the set of values SPEC SCHED-3 says it allows,
// so the oracle can match date-times without cronexpr.

// field is one generated cron field.
type field struct {
	text  string
	base  int
	allow []bool // allow[v-base]
	star  bool   // `*` or `?`: unrestricted for the day rule of SCHED-7
}

func (f field) has(v int) bool {
	i := v - f.base
	return i >= 0 && i < len(f.allow) && f.allow[i]
}

// genCron is a generated schedule: six start fields and two end fields.
type genCron struct {
	minute, hour, dom, month, dow, year field
	endMinute, endHour                  field
}

func (g genCron) cron(zone string) *Cron {
	return &Cron{Start: g.start(), End: g.end(), Timezone: zone}
}

func (g genCron) start() string {
	return strings.Join([]string{g.minute.text, g.hour.text, g.dom.text, g.month.text, g.dow.text, g.year.text}, " ")
}

func (g genCron) end() string { return g.endMinute.text + " " + g.endHour.text }

func (g genCron) matchStart(c civil) bool {
	if !g.minute.has(c.minute) || !g.hour.has(c.hour) || !g.month.has(c.month) || !g.year.has(c.year) {
		return false
	}
	// SCHED-7: both day fields restricted -> either; else the restricted one.
	domOK, dowOK := g.dom.has(c.day), g.dow.has(c.weekday)
	switch {
	case g.dom.star && g.dow.star:
		return true
	case g.dom.star:
		return dowOK
	case g.dow.star:
		return domOK
	default:
		return domOK || dowOK
	}
}

// matchEnd matches End + " * * * *": its day, month and year fields are
// `*`, and a year `*` is 1970..2099 (SCHED-3).
func (g genCron) matchEnd(c civil) bool {
	return g.endMinute.has(c.minute) && g.endHour.has(c.hour) && c.year >= 1970 && c.year <= 2099
}

var (
	monthNames = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	monthLong  = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
	dayNames   = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
	dayLong    = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}
)

// fieldKind weights: how often a field is `*`/`?`, a number, a range.
type fieldKind struct{ star, number, rng int }

func drawKind(t *rapid.T, label string, k fieldKind) string {
	n := rapid.IntRange(0, k.star+k.number+k.rng-1).Draw(t, label+"Kind")
	switch {
	case n < k.star:
		return "star"
	case n < k.star+k.number:
		return "number"
	}
	return "range"
}

// numberToken writes v, sometimes with a leading zero (SCHED-2: fine).
func numberToken(t *rapid.T, label string, v int) string {
	if v < 10 && rapid.IntRange(0, 3).Draw(t, label+"Zero") == 0 {
		return fmt.Sprintf("0%d", v)
	}
	return fmt.Sprint(v)
}

// nameToken writes a name in a random case (SCHED-3: case-insensitive).
func nameToken(t *rapid.T, label, name string) string {
	switch rapid.IntRange(0, 2).Draw(t, label+"Case") {
	case 0:
		return strings.ToUpper(name)
	case 1:
		return strings.ToUpper(name[:1]) + name[1:]
	}
	return name
}

func starField(t *rapid.T, label string, lo, hi int) field {
	f := field{text: rapid.SampledFrom([]string{"*", "*", "?"}).Draw(t, label+"Star"), base: lo, star: true}
	f.allow = make([]bool, hi-lo+1)
	for i := range f.allow {
		f.allow[i] = true
	}
	return f
}

func spanField(text string, lo, hi, first, last int) field {
	f := field{text: text, base: lo, allow: make([]bool, hi-lo+1)}
	for v := first; v <= last; v++ { // first > last: nothing (SCHED-3)
		f.allow[v-lo] = true
	}
	return f
}

// drawPlain draws a minute, hour or day-of-month field.
func drawPlain(t *rapid.T, label string, lo, hi int, k fieldKind) field {
	return drawNear(t, label, lo, hi, k, -1)
}

// drawNear draws a plain field whose values are, half the time, within a
// day of near (no bias for near < 0).
func drawNear(t *rapid.T, label string, lo, hi int, k fieldKind, near int) field {
	pick := func(suffix string) int {
		if near >= 0 && rapid.Bool().Draw(t, label+suffix+"Near") {
			return min(max(near+rapid.IntRange(-1, 1).Draw(t, label+suffix+"Delta"), lo), hi)
		}
		return rapid.IntRange(lo, hi).Draw(t, label+suffix)
	}
	switch drawKind(t, label, k) {
	case "star":
		return starField(t, label, lo, hi)
	case "number":
		v := pick("")
		return spanField(numberToken(t, label, v), lo, hi, v, v)
	}
	a := pick("First")
	b := pick("Last")
	if rapid.IntRange(0, 9).Draw(t, label+"Order") != 7 && a > b {
		a, b = b, a // mostly well-ordered (rapid favours small draws)
	}
	return spanField(numberToken(t, label+"First", a)+"-"+numberToken(t, label+"Last", b), lo, hi, a, b)
}

// monthToken is a month as a number or a name.
func monthToken(t *rapid.T, label string, v int) string {
	switch rapid.IntRange(0, 2).Draw(t, label+"Form") {
	case 0:
		return nameToken(t, label, monthNames[v-1])
	case 1:
		return nameToken(t, label, monthLong[v-1])
	}
	return numberToken(t, label, v)
}

// drawMonth draws a month field, biased to hold near, the month of t.
func drawMonth(t *rapid.T, near int) field {
	switch drawKind(t, "month", fieldKind{star: 14, number: 2, rng: 2}) {
	case "star":
		return starField(t, "month", 1, 12)
	case "number":
		v := near
		if rapid.IntRange(0, 3).Draw(t, "monthOther") == 0 {
			v = rapid.IntRange(1, 12).Draw(t, "month")
		}
		return spanField(monthToken(t, "month", v), 1, 12, v, v)
	}
	a := rapid.IntRange(1, near).Draw(t, "monthFirst")
	b := rapid.IntRange(near, 12).Draw(t, "monthLast")
	if rapid.IntRange(0, 3).Draw(t, "monthSwap") == 2 {
		a, b = b, a // an empty range (first > last) or the single month
	}
	return spanField(monthToken(t, "monthFirst", a)+"-"+monthToken(t, "monthLast", b), 1, 12, a, b)
}

// dayToken is a weekday 0..7 as a number or a name (7 only as a number).
func dayToken(t *rapid.T, label string, v int) string {
	if v < 7 {
		switch rapid.IntRange(0, 3).Draw(t, label+"Form") {
		case 0:
			return nameToken(t, label, dayNames[v])
		case 1:
			return nameToken(t, label, dayLong[v])
		}
	}
	return numberToken(t, label, v)
}

// drawDOW draws a day-of-week field. Allowed days follow SCHED-3 and the
// package's reading of ranges ending on Sunday (dow.go): `a-7` and `a-SUN`
// run to Sunday, `a-0` is empty unless a is 0, and a first value of 7 is
// Sunday (0) as cronexpr reads it.
func drawDOW(t *rapid.T, near int) field {
	switch drawKind(t, "dow", fieldKind{star: 8, number: 1, rng: 3}) {
	case "star":
		return starField(t, "dow", 0, 6)
	case "number":
		v := rapid.IntRange(0, 7).Draw(t, "dow")
		if rapid.Bool().Draw(t, "dowNear") {
			v = near
		}
		return spanField(dayToken(t, "dow", v), 0, 6, v%7, v%7)
	}
	a := rapid.IntRange(0, 7).Draw(t, "dowFirst")
	b := rapid.IntRange(0, 7).Draw(t, "dowLast")
	if rapid.IntRange(0, 3).Draw(t, "dowOrder") != 2 && a > b {
		a, b = b, a
	}
	text := dayToken(t, "dowFirst", a) + "-" + dayToken(t, "dowLast", b)
	lastTok := strings.ToLower(text[strings.IndexByte(text, '-')+1:])
	f := field{text: text, base: 0, allow: make([]bool, 7)}
	first, last := a, b
	switch {
	case lastTok == "sun" || lastTok == "sunday":
		last = 7
		if first == 0 {
			last = 0
		}
	case b == 0 || b == 7: // numeric Sunday at the end: up to 0 or 7
	case a == 7: // 7 first, not Sunday last: cronexpr's Sunday
		first = 0
	}
	for v := first; v <= last; v++ {
		f.allow[v%7] = true
	}
	return f
}

// drawYear draws a year field around year: mostly `*`, sometimes the year,
// a neighbour or a range holding it.
func drawYear(t *rapid.T, year int) field {
	switch drawKind(t, "year", fieldKind{star: 12, number: 2, rng: 2}) {
	case "star":
		return starField(t, "year", 1970, 2099)
	case "number":
		v := year
		if rapid.IntRange(0, 3).Draw(t, "yearOther") == 0 {
			v += rapid.SampledFrom([]int{-1, 1}).Draw(t, "yearDelta")
		}
		v = min(max(v, 1970), 2099)
		return spanField(fmt.Sprint(v), 1970, 2099, v, v)
	}
	a := min(max(year-rapid.IntRange(0, 3).Draw(t, "yearBack"), 1970), 2099)
	b := min(max(year+rapid.IntRange(0, 3).Draw(t, "yearAhead"), 1970), 2099)
	return spanField(fmt.Sprintf("%d-%d", a, b), 1970, 2099, a, b)
}

// drawCron draws a schedule that mostly matches every day or so around
// local (the evaluation instant's wall clock), so that the oracle's
// horizon usually decides everything.
func drawCron(t *rapid.T, local time.Time) genCron {
	return genCron{
		minute:    drawPlain(t, "minute", 0, 59, fieldKind{star: 1, number: 12, rng: 4}),
		hour:      drawPlain(t, "hour", 0, 23, fieldKind{star: 2, number: 8, rng: 6}),
		dom:       drawNear(t, "dom", 1, 31, fieldKind{star: 20, number: 1, rng: 3}, local.Day()),
		month:     drawMonth(t, int(local.Month())),
		dow:       drawDOW(t, int(local.Weekday())),
		year:      drawYear(t, local.Year()),
		endMinute: drawPlain(t, "endMinute", 0, 59, fieldKind{star: 1, number: 12, rng: 3}),
		endHour:   drawPlain(t, "endHour", 0, 23, fieldKind{star: 2, number: 12, rng: 3}),
	}
}
