package schedule

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

// TestEvaluateAgainstOracleAllZones is the oracle property over every zone
// of the system tz database, opt-in (ALLOCSIM_SCHEDULE_ALL_ZONES=1; about a
// minute of CPU) because the default run keeps to propertyZones. Stretches
// with offsets that are not whole minutes (Africa/Monrovia before 1972) are
// skipped: the oracle walks minutes.
func TestEvaluateAgainstOracleAllZones(t *testing.T) {
	if os.Getenv("ALLOCSIM_SCHEDULE_ALL_ZONES") == "" {
		t.Skip("set ALLOCSIM_SCHEDULE_ALL_ZONES=1 to run the oracle over every tz database zone")
	}
	const root = "/usr/share/zoneinfo"
	var names []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() && (rel == "posix" || rel == "right") {
			return filepath.SkipDir
		}
		if d.IsDir() || strings.ContainsAny(rel, ".") || strings.ToLower(rel) == rel {
			return nil // tables such as zone.tab, iso3166.tab, leapseconds
		}
		if _, err := time.LoadLocation(rel); err == nil {
			names = append(names, rel)
		}
		return nil
	})
	must.NoError(t, err)
	must.Greater(t, 300, len(names))
	sc := &oracleScratch{}
	skipped := 0
	for _, name := range names {
		loc := cachedZone(t, name)
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				at := drawInstant(rt, loc)
				gen := drawCron(rt, at.In(loc))
				c, err := Compile(&Schedule{Cron: gen.cron(name)}, nil)
				must.NoError(rt, err)
				tl := buildTimeline(sc, loc, gen, at)
				if tl.misaligned {
					skipped++
					return
				}
				or := tl.evaluate(at, 3)
				compareResult(rt, c.Evaluate(at), or)
				compareWindows(rt, c.NextWindows(at, 3), or.windows)
			})
		})
	}
	t.Logf("%d zones, %d cases skipped for non-minute offsets", len(names), skipped)
}
