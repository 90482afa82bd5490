package schedule

import (
	"regexp"
	"strconv"
	"strings"
)

// This file finds an expression's fields the way cronexpr v1.1.3 does, for
// the fixes this package applies around it (dow.go) and for the
// expressions it must never search (neverMatches).

// macroExpander repeats cronexpr's alias expansion.
var macroExpander = strings.NewReplacer(
	"@yearly", "0 0 0 1 1 * *",
	"@annually", "0 0 0 1 1 * *",
	"@monthly", "0 0 0 1 * * *",
	"@weekly", "0 0 0 * * 0 *",
	"@daily", "0 0 0 * * * *",
	"@hourly", "0 0 * * * * *")

var (
	// fieldFinder and entryFinder are cronexpr's field and list-entry
	// patterns.
	fieldFinder = regexp.MustCompile(`\S+`)
	entryFinder = regexp.MustCompile(`[^,]+`)

	// rangeEntry is a range entry `a-b` or `a-b/step`.
	rangeEntry = regexp.MustCompile(`^([0-9a-z]+)-([0-9a-z]+)(?:/[0-9]+)?$`)
)

// cronFields is an expression after macro expansion, with the byte bounds
// of each field and the indexes of the fields that move with a leading
// seconds field (fields past the seventh are ignored, as cronexpr does).
type cronFields struct {
	text                     string
	bounds                   [][]int
	second                   int // -1 without a seconds field
	minute, hour, month, dow int
}

// splitFields finds the fields; ok is false under five fields.
func splitFields(expr string) (cronFields, bool) {
	text := macroExpander.Replace(expr)
	bounds := fieldFinder.FindAllStringIndex(text, -1)
	if len(bounds) < 5 {
		return cronFields{}, false
	}
	f := cronFields{text: text, bounds: bounds, second: -1, minute: 0, hour: 1, month: 3, dow: 4}
	if len(bounds) >= 7 {
		f = cronFields{text: text, bounds: bounds, second: 0, minute: 1, hour: 2, month: 4, dow: 5}
	}
	return f, true
}

func (f cronFields) field(i int) string { return f.text[f.bounds[i][0]:f.bounds[i][1]] }

// monthValues maps month tokens to 1..12.
var monthValues = map[string]int{
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
	"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
	"january": 1, "february": 2, "march": 3, "april": 4, "june": 6,
	"july": 7, "august": 8, "september": 9, "october": 10,
	"november": 11, "december": 12,
}

// neverMatches reports an expression, already accepted by cronexpr, whose
// second, minute, hour or month field selects no value: every entry is a
// range with first > last (`5-1`, `DEC-JAN`). SCHED-3 says such a range
// matches nothing; cronexpr's Next instead indexes the empty list and
// panics, or (an empty minute list under an hour `*`) walks every hour up
// to 2099. Such an expression is never searched. Empty day and year fields
// are safe: cronexpr just finds no date.
func neverMatches(expr string) bool {
	f, ok := splitFields(expr)
	if !ok {
		return false
	}
	for _, i := range []int{f.second, f.minute, f.hour, f.month} {
		if i >= 0 && emptyField(f.field(i)) {
			return true
		}
	}
	return false
}

// emptyField reports whether every entry of a field is a range whose first
// value exceeds its last.
func emptyField(field string) bool {
	entries := entryFinder.FindAllString(strings.ToLower(field), -1)
	for _, e := range entries {
		m := rangeEntry.FindStringSubmatch(e)
		if m == nil || tokenValue(m[1]) <= tokenValue(m[2]) {
			return false
		}
	}
	return len(entries) > 0
}

// tokenValue is a number or month name's value.
func tokenValue(tok string) int {
	if v, ok := monthValues[tok]; ok {
		return v
	}
	v, _ := strconv.Atoi(tok)
	return v
}
