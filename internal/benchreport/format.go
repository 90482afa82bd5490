package main

import (
	"math"
	"strconv"
	"strings"
)

// The README's number formats: three significant digits in a fitting
// unit, thousands separated by commas, "-" for a number not measured
// (NaN). All are deterministic, for the golden file.

const dash = "-"

// short drops the Benchmark prefix: "Day50x3".
func short(name string) string { return strings.TrimPrefix(name, "Benchmark") }

// sig formats v with three significant digits, without an exponent, and
// thousands separators from 1,000 on.
func sig(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1000:
		return group(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// group inserts commas between the thousands of an integer's digits.
func group(digits string) string {
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// fmtSeconds renders s seconds: "3.31 s", "637 ms", "12.2 µs", "850 ns".
func fmtSeconds(s float64) string {
	if math.IsNaN(s) {
		return dash
	}
	return fmtNanos(s * 1e9)
}

// fmtNanos renders ns nanoseconds as fmtSeconds does.
func fmtNanos(ns float64) string {
	switch a := math.Abs(ns); {
	case math.IsNaN(ns):
		return dash
	case a >= 1e9:
		return sig(ns/1e9) + " s"
	case a >= 1e6:
		return sig(ns/1e6) + " ms"
	case a >= 1e3:
		return sig(ns/1e3) + " µs"
	default:
		return sig(ns) + " ns"
	}
}

// fmtBytes renders n bytes in binary units: "468 MiB", "1.23 GiB".
func fmtBytes(n float64) string {
	if math.IsNaN(n) {
		return dash
	}
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	for math.Abs(n) >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	if i == 0 {
		return strconv.FormatFloat(n, 'f', 0, 64) + " B"
	}
	return sig(n) + " " + units[i]
}

// fmtCount renders a count or rate: "433,434", "99", "525.6" → "526",
// "5.00" for small non-integers.
func fmtCount(v float64) string {
	switch {
	case math.IsNaN(v):
		return dash
	case v == math.Trunc(v) || math.Abs(v) >= 100:
		return group(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
	default:
		return sig(v)
	}
}

// fmtRatio renders a ratio: "5.20×", "47,000×".
func fmtRatio(v float64) string {
	if math.IsNaN(v) {
		return dash
	}
	return sig(v) + "×"
}
