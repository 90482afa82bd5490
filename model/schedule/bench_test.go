package schedule

import (
	"testing"
	"time"
)

// benchSchedules are typical and awkward schedules for the benchmarks.
var benchSchedules = []struct {
	name string
	cron Cron
}{
	{"daily_utc", Cron{Start: "0 9 * * * *", End: "0 17", Timezone: "UTC"}},
	{"hours_new_york", Cron{Start: "0 9-17 * * MON-FRI *", End: "30 17", Timezone: "America/New_York"}},
	{"overnight_lord_howe", Cron{Start: "30 21 * * * *", End: "15 3", Timezone: "Australia/Lord_Howe"}},
	{"every_minute_berlin", Cron{Start: "* * * * * *", End: "30 *", Timezone: "Europe/Berlin"}},
	{"yearly_kathmandu", Cron{Start: "0 9 1 JAN * *", End: "0 17", Timezone: "Asia/Kathmandu"}},
	{"never_new_york", Cron{Start: "0 9 30 2 * *", End: "0 17", Timezone: "America/New_York"}},
}

// benchInstants spreads evaluations over a DST year.
func benchInstants() []time.Time {
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	out := make([]time.Time, 64)
	for i := range out {
		out[i] = base.Add(time.Duration(i) * 137 * time.Hour)
	}
	return out
}

// BenchmarkEvaluate measures one evaluation, compiled once (the runner's
// way) and from scratch (zone lookup, parsing and bounds every time).
func BenchmarkEvaluate(b *testing.B) {
	ats := benchInstants()
	for _, bs := range benchSchedules {
		s := &Schedule{Cron: &bs.cron}
		b.Run(bs.name+"/compiled", func(b *testing.B) {
			c, err := Compile(s, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				_ = c.Evaluate(ats[i%len(ats)])
				i++
			}
		})
		b.Run(bs.name+"/uncompiled", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := Evaluate(s, ats[i%len(ats)], nil); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkNextWindows measures listing ten windows from a compiled
// schedule.
func BenchmarkNextWindows(b *testing.B) {
	ats := benchInstants()
	for _, bs := range benchSchedules {
		c, err := Compile(&Schedule{Cron: &bs.cron}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bs.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				_ = c.NextWindows(ats[i%len(ats)], 10)
				i++
			}
		})
	}
}
