package main

import (
	"go/parser"
	"go/token"
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
	for _, want := range []string{"time.Now", "time.Sleep", "math/rand.Intn", "math/rand/v2.IntN", "os.Getenv", "time.Local", "MeasureSince", "clock.New"} {
		must.StrContains(t, all, want)
	}
	must.Len(t, 10, vs, must.Sprint(all))
}

// TestRealClock: the real clock's constructor, github.com/benbjohnson/clock's
// New, is caught through an alias, called or as a func value; NewMock, an
// injected clock.Clock and a local called clock are not.
func TestRealClock(t *testing.T) {
	vs, err := CheckDirs([]string{"testdata/bad/clock.go"})
	must.NoError(t, err)
	var got []string
	for _, v := range vs {
		got = append(got, v.String())
	}
	must.Eq(t, []string{
		"testdata/bad/clock.go:7:14: github.com/benbjohnson/clock.New is forbidden here (DET-1): use the injected clock.Clock (only the production adapter under cmd/ builds the real one)",
		"testdata/bad/clock.go:9:9: github.com/benbjohnson/clock.New is forbidden here (DET-1): use the injected clock.Clock (only the production adapter under cmd/ builds the real one)",
	}, got)

	vs, err = CheckDirs([]string{"testdata/good/clock.go"})
	must.NoError(t, err)
	must.SliceEmpty(t, vs)
}

// TestTestFilesExempt: a _test.go file may use the real clock and time.Now,
// although the same source in a non-test file is a violation.
func TestTestFilesExempt(t *testing.T) {
	const file = "testdata/exempt/exempt_test.go"
	vs, err := CheckDirs([]string{"testdata/exempt"})
	must.NoError(t, err)
	must.SliceEmpty(t, vs)

	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	must.NoError(t, err)
	var got []string
	for _, v := range CheckFile(fset, f) {
		got = append(got, v.Msg)
	}
	must.Len(t, 2, got, must.Sprint(got))
	must.StrContains(t, got[0], "github.com/benbjohnson/clock.New")
	must.StrContains(t, got[1], "time.Now")
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
