package main

import (
	"strings"
	"testing"

	"github.com/shoenig/test/must"
)

func TestBadIsCaught(t *testing.T) {
	vs, err := CheckDirs([]string{"testdata/bad"})
	must.NoError(t, err)
	var got []string
	for _, v := range vs {
		got = append(got, v.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{"time.Now", "time.Sleep", "math/rand.Intn", "math/rand/v2.IntN", "os.Getenv", "time.Local", "MeasureSince"} {
		must.StrContains(t, all, want)
	}
	must.Len(t, 8, vs, must.Sprint(all))
}

func TestGoodPasses(t *testing.T) {
	vs, err := CheckDirs([]string{"testdata/good"})
	must.NoError(t, err)
	must.SliceEmpty(t, vs)
}

func TestMissingDir(t *testing.T) {
	_, err := CheckDirs([]string{"testdata/nope"})
	must.Error(t, err)
}
