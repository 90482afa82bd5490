package runners

import (
	"bytes"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/impl/mutants"
	"github.com/allocsim/allocsim/properties"
	"github.com/shoenig/test/must"
)

func TestAll(t *testing.T) {
	all := All()
	must.Eq(t, 2+len(mutants.All()), len(all))
	must.Eq(t, "reference", all[0].Name)
	must.Eq(t, "minimal", all[1].Name)
	seen := map[string]bool{}
	for _, r := range all {
		must.False(t, seen[r.Name], must.Sprint("duplicate ", r.Name))
		seen[r.Name] = true
		must.Eq(t, r.Kind == KindMutant, r.ExpectFail, must.Sprint(r.Name))
		must.NotNil(t, r.Factory.NewClient, must.Sprint(r.Name))
		must.NotEq(t, "", r.About, must.Sprint(r.Name))
	}
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"reference", "minimal", "mutant/sched-utc", "sched-utc"} {
		r, err := Lookup(name)
		must.NoError(t, err, must.Sprint(name))
		must.True(t, strings.HasSuffix(r.Name, name), must.Sprint(name))
	}
	_, err := Lookup("mutant/no-such")
	must.ErrorContains(t, err, `no built-in runner "mutant/no-such"`)
}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	must.NoError(t, Run("runners", nil, &out, nil))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	must.Eq(t, len(All()), len(lines))
	must.StrContains(t, lines[2], "mutant/")
	must.StrContains(t, out.String(), "mutant/sched-utc")
	must.StrContains(t, out.String(), "breaks SCHED-4: ")
	must.True(t, cli.IsUsage(Run("runners", []string{"extra"}, &out, nil)))
	out.Reset()
	must.NoError(t, Run("runners", []string{"-h"}, &out, nil))
	must.StrContains(t, out.String(), "Usage:\n  conform runners")
}

func TestProfilesAreTheSuites(t *testing.T) {
	must.Eq(t, properties.ProfileFull, ProfileFull)
	must.Eq(t, properties.ProfileClientCommunication, ProfileClientCommunication)
}
