package schedule

import (
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestCompiledCronsAreOwn compiles one schedule from several goroutines
// and evaluates each: cronexpr's Next writes to its expression, so the
// parse cache must hand every caller its own (the race detector judges
// under make race), and a cached compile answers as the first did.
func TestCompiledCronsAreOwn(t *testing.T) {
	s := &Schedule{Cron: &Cron{Start: "30 9 * * 1-5", End: "0 17", Timezone: "Europe/Berlin"}}
	from := time.Date(2024, 3, 29, 18, 0, 0, 0, time.UTC)
	first, err := Compile(s, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	want := first.start.Next(from)
	var wg sync.WaitGroup
	got := make([]time.Time, 8)
	for i := range got {
		wg.Go(func() {
			c, err := Compile(s, time.UTC)
			if err != nil {
				t.Error(err)
				return
			}
			for d := range 40 {
				c.start.Next(from.AddDate(0, 0, d))
			}
			got[i] = c.start.Next(from)
		})
	}
	wg.Wait()
	for i, g := range got {
		if !g.Equal(want) {
			t.Errorf("goroutine %d: next start %v, want %v", i, g, want)
		}
	}
}

// TestParseCacheBounded fills the parse cache past its bound: it is
// emptied, not grown, and what it answers stays right.
func TestParseCacheBounded(t *testing.T) {
	for m := range maxParsedCrons + 10 {
		expr := strconv.Itoa(m%60) + " " + strconv.Itoa(m/60%24) + " " + strconv.Itoa(m/1440%28+1) + " * *"
		got, _, err := parseCron(expr)
		if err != nil {
			t.Fatalf("%q: %v", expr, err)
		}
		fresh, _, _ := parseCronUncached(expr)
		from := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		if !got.Next(from).Equal(fresh.Next(from)) {
			t.Fatalf("%q: cached next %v, uncached %v", expr, got.Next(from), fresh.Next(from))
		}
	}
	if n := parsedCount.Load(); n > maxParsedCrons {
		t.Errorf("cache holds %d entries, bound %d", n, maxParsedCrons)
	}
}
