package schedule

import (
	"flag"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

// propertyZones are tz database zones with DST at odd hours, half- and
// quarter-hour offsets, 30-minute and 2-hour shifts, negative DST, date
// line jumps and legacy names. All have whole-minute offsets since 1970 (the
// oracle walks minutes), which TestPropertyZonesAreMinuteAligned checks.
var propertyZones = []string{
	"UTC", "EST", "EST5EDT", "MST7MDT", "HST",
	"America/New_York", "America/Los_Angeles", "America/St_Johns",
	"America/Sao_Paulo", "America/Havana", "America/Santiago",
	"America/Caracas", "America/Godthab", "America/Asuncion",
	"Europe/Berlin", "Europe/London", "Europe/Dublin", "Europe/Moscow",
	"Europe/Lisbon", "Africa/Casablanca", "Africa/Cairo",
	"Asia/Kolkata", "Asia/Kathmandu", "Asia/Tehran", "Asia/Gaza",
	"Asia/Pyongyang", "Antarctica/Troll",
	"Australia/Lord_Howe", "Australia/Adelaide", "Australia/Eucla",
	"Pacific/Chatham", "Pacific/Apia", "Pacific/Kiritimati",
	"Pacific/Kwajalein", "Pacific/Marquesas",
}

// propertyChecks is how many cases TestEvaluateAgainstOracle runs unless
// -rapid.checks or RAPID_CHECKS says otherwise; the race detector slows
// the oracle about tenfold, so race builds run a tenth.
func propertyChecks() int {
	if raceEnabled {
		return 1_000
	}
	return 10_000
}

// rapidChecksChosen reports whether -rapid.checks or RAPID_CHECKS was
// given, judged once, before withRapidChecks sets the flag itself.
var rapidChecksChosen = sync.OnceValue(func() bool {
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "rapid.checks" })
	_, env := os.LookupEnv("RAPID_CHECKS")
	return explicit || env
})

// withRapidChecks sets rapid's check count for one test unless the caller
// chose one, and reports the count rapid will run (nil: caller's choice).
func withRapidChecks(t *testing.T, n int) *int {
	if rapidChecksChosen() {
		return nil
	}
	old := flag.Lookup("rapid.checks").Value.String()
	must.NoError(t, flag.Set("rapid.checks", strconv.Itoa(n)))
	t.Cleanup(func() { _ = flag.Set("rapid.checks", old) })
	if testing.Short() {
		n /= 5 // rapid's own -short rule
	}
	return &n
}

var (
	zoneMu    sync.Mutex
	zoneCache = map[string]*time.Location{}
)

func cachedZone(t must.T, name string) *time.Location {
	zoneMu.Lock()
	defer zoneMu.Unlock()
	if loc, ok := zoneCache[name]; ok {
		return loc
	}
	loc := mustZone(t, name)
	zoneCache[name] = loc
	return loc
}

// drawInstant draws an instant from 1970 to 2100, half the time within 36
// hours of a transition of loc.
func drawInstant(t *rapid.T, loc *time.Location) time.Time {
	year := rapid.IntRange(1970, 2100).Draw(t, "year")
	u := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC).Unix() + rapid.Int64Range(0, 365*86400).Draw(t, "second")
	if rapid.Bool().Draw(t, "nearTransition") {
		if _, end := time.Unix(u, 0).In(loc).ZoneBounds(); !end.IsZero() {
			u = end.Unix() + rapid.Int64Range(-36*3600, 36*3600).Draw(t, "fromTransition")
		}
	}
	if rapid.IntRange(0, 2).Draw(t, "onMinute") == 0 {
		u -= ((u % 60) + 60) % 60 // boundaries fall on whole minutes
	}
	nanos := rapid.SampledFrom([]int64{0, 0, 0, 1, 500_000_000, 999_999_999}).Draw(t, "nanos")
	return time.Unix(u, nanos).UTC()
}

// TestEvaluateAgainstOracle is the SCHED-5..8 property: over random zones,
// instants and schedules, Evaluate and NextWindows agree with the naive
// minute-walking oracle on everything the oracle can decide.
func TestEvaluateAgainstOracle(t *testing.T) {
	want := withRapidChecks(t, propertyChecks())
	var runs, full, compared int
	sc := &oracleScratch{}
	rapid.Check(t, func(rt *rapid.T) {
		runs++
		name := rapid.SampledFrom(propertyZones).Draw(rt, "zone")
		loc := cachedZone(rt, name)
		at := drawInstant(rt, loc)
		gen := drawCron(rt, at.In(loc))
		s := &Schedule{Cron: gen.cron(name)}
		must.NoError(rt, Validate(s, ProfileEnt))
		c, err := Compile(s, nil)
		must.NoError(rt, err)

		tl := buildTimeline(sc, loc, gen, at)
		if tl.misaligned {
			rt.Fatalf("zone %s has a non-minute offset near %s", name, at)
		}
		got := c.Evaluate(at)
		or := tl.evaluate(at, 3)
		n := compareResult(rt, got, or)
		n += compareWindows(rt, c.NextWindows(at, 3), or.windows)
		compared += n
		if or.insideKnown && or.ns.ok && or.ne.ok && (!or.inside || or.ws.ok && or.we.ok) {
			full++
		}
	})
	t.Logf("oracle property: %d cases, %d fully decided by the oracle, %d values compared", runs, full, compared)
	if want != nil {
		must.GreaterEq(t, *want, runs)
		must.GreaterEq(t, runs/2, full) // the generator must keep the oracle useful
	}
}

// compareResult checks got against every decided oracle value and returns
// how many it compared.
func compareResult(t *rapid.T, got Result, want oracleResult) int {
	if !want.insideKnown {
		n := 0
		n += compareKnown(t, "NextStart", got.NextStart, want.ns)
		return n
	}
	if got.Inside != want.inside {
		t.Fatalf("Inside = %v, want %v (got %+v)", got.Inside, want.inside, got)
	}
	n := 1
	if want.inside {
		n += compareKnown(t, "WindowStart", got.WindowStart, want.ws)
		n += compareKnown(t, "WindowEnd", got.WindowEnd, want.we)
	} else if !got.WindowStart.IsZero() || !got.WindowEnd.IsZero() {
		t.Fatalf("outside but window set: %+v", got)
	}
	n += compareKnown(t, "NextStart", got.NextStart, want.ns)
	n += compareKnown(t, "NextEnd", got.NextEnd, want.ne)
	return n
}

func compareKnown(t *rapid.T, what string, got time.Time, want known) int {
	if !want.ok {
		return 0
	}
	if got.IsZero() || got.Unix() != want.unix || got.Nanosecond() != 0 {
		t.Fatalf("%s = %s, want %s", what, stamp(got, "none"), time.Unix(want.unix, 0).UTC())
	}
	return 1
}

func compareWindows(t *rapid.T, got []Window, want [][2]known) int {
	if len(got) < len(want) {
		t.Fatalf("NextWindows gave %d windows, the oracle decided %d: %v", len(got), len(want), got)
	}
	n := 0
	for i, w := range want {
		n += compareKnown(t, "window start", got[i].Start, w[0])
		n += compareKnown(t, "window end", got[i].End, w[1])
	}
	return n
}

// TestPropertyZonesAreMinuteAligned guards the oracle's premise.
func TestPropertyZonesAreMinuteAligned(t *testing.T) {
	lo := time.Date(1968, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(2102, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	for _, name := range propertyZones {
		z := zone{loc: cachedZone(t, name)}
		for p, ok := z.at(lo), true; ok && p.start < hi; p, ok = z.after(p) {
			must.Eq(t, 0, p.offset%60, must.Sprint(name, " at ", p.start))
		}
	}
}
