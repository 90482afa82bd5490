package schedule

import (
	"regexp"
	"strconv"
	"strings"
)

// cronexpr v1.1.3 misreads two kinds of day-of-week values that SPEC
// SCHED-3 defines:
//
//   - a range whose last value is Sunday: it turns 7 into 0 and then a last
//     value of 0 into 6, so `5-7` is Friday–Saturday and `7-7` every day,
//     where SCHED-3 says 0 and 7 are both Sunday and `5-7` is Friday–Sunday;
//   - a leading zero: its name table lacks `01`..`07`, so `05` is Sunday,
//     where SCHED-2 says leading zeros are fine.
//
// normalizeDOW rewrites the day-of-week field of an expression cronexpr has
// already accepted (so its errors always quote the text as written) before
// the expression is parsed for matching:
//
//  1. each two-digit `0d` loses its leading zero;
//  2. a range `a-b` or `a-b/step` whose b names Sunday becomes an explicit
//     list: b `7` or `sun`/`sunday` ends the range on Sunday (7), except
//     that a Sunday name at both ends (`sun-sun`, `0-sun`) is Sunday alone;
//     b `0` ends it on 0, so only `0-0` matches (Sunday) and any other
//     first value gives an empty range (first > last matches nothing).
//     Values run from first to last by step, 7 read as Sunday.
//
// Every other entry keeps cronexpr's meaning, including a first value of 7
// (`7-3` is Sunday–Wednesday) and the specials `L` and `#`.

var (
	leadingZero = regexp.MustCompile(`(^|[^0-9])0([0-7])($|[^0-9])`)

	dowValue = `[0-7]|sun|mon|tue|wed|thu|fri|sat|sunday|monday|tuesday|wednesday|thursday|friday|saturday`
	dowRange = regexp.MustCompile(`^(` + dowValue + `)-(` + dowValue + `)(?:/([0-9]+))?$`)
)

// dowNames maps day-of-week tokens (leading zeros stripped) to 0..7.
var dowNames = map[string]int{
	"0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7,
	"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6,
	"sunday": 0, "monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4,
	"friday": 5, "saturday": 6,
}

// normalizeDOW returns expr with its day-of-week field fixed as above, or
// expr itself when nothing needs rewriting.
func normalizeDOW(expr string) string {
	f, ok := splitFields(expr)
	if !ok {
		return expr // cronexpr reports the missing fields
	}
	lo, hi := f.bounds[f.dow][0], f.bounds[f.dow][1]
	field, changed := rewriteDOWField(f.text[lo:hi])
	if !changed {
		return expr
	}
	return f.text[:lo] + field + f.text[hi:]
}

// rewriteDOWField rewrites the list entries of one day-of-week field.
func rewriteDOWField(field string) (string, bool) {
	entries := entryFinder.FindAllString(field, -1)
	changed := false
	for i, e := range entries {
		e = strings.ToLower(e)
		// Twice: a match consumes the separator a neighbour needs (01-03).
		e = leadingZero.ReplaceAllString(leadingZero.ReplaceAllString(e, "$1$2$3"), "$1$2$3")
		if list, ok := sundayRange(e); ok {
			e = list
		}
		if e != strings.ToLower(entries[i]) {
			entries[i] = e
			changed = true
		}
	}
	if !changed {
		return field, false
	}
	return strings.Join(entries, ","), true
}

// sundayRange expands one lower-cased entry if it is a range ending on
// Sunday; ok is false for every other entry.
func sundayRange(entry string) (list string, ok bool) {
	m := dowRange.FindStringSubmatch(entry)
	if m == nil {
		return "", false
	}
	first, lastTok := dowNames[m[1]], m[2]
	var last int
	switch lastTok {
	case "7":
		last = 7
	case "sun", "sunday":
		last = 7
		if first == 0 {
			last = 0
		}
	case "0":
		last = 0
	default:
		return "", false
	}
	step := 1
	if m[3] != "" {
		// cronexpr accepted the expression, so the step is 1..6.
		step, _ = strconv.Atoi(m[3])
		step = max(step, 1)
	}
	var days []string
	for v := first; v <= last; v += step {
		days = append(days, strconv.Itoa(v%7))
	}
	if len(days) == 0 {
		// An empty range: cronexpr keeps a first > last span restricted
		// and empty, provided last is not 0 (which it would turn into 6).
		return "6-1", true
	}
	return strings.Join(days, ","), true
}
