package jobspec

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/allocsim/allocsim/model/structs"
)

// FuzzParse: no input makes Parse panic; an error is a non-empty *Error
// and nothing else; a job is canonical and survives the API JSON round
// trip unchanged. Seeds: the fixtures and a few edge inputs.
func FuzzParse(f *testing.F) {
	entries, err := os.ReadDir(fixturesDir)
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		src, err := os.ReadFile(filepath.Join(fixturesDir, e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, s := range []string{
		"", "{}", "[]", "null", `{"Job":null}`, minimalJSONJob,
		`{"ID":"j","TaskGroups":[null]}`,
		taskSrc("config {", `  a = ["${x}", { k = 1e400 }]`, "  b {}", "}"),
		taskSrc("schedule {", "  cron {}", "}", "lifecycle { hook = \"prestart\" }"),
		groupSrc(`volume "v" { source = "s" }`, `task "t" {`, `  driver = "d"`, `  volume_mount { volume = "w" }`, `}`),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, name := range []string{"f.hcl", "f.json", "f"} {
			job, warns, err := Parse(name, src)
			checkParsed(t, name, job, warns, err)
		}
	})
}

func checkParsed(t *testing.T, name string, j *structs.Job, warns []Warning, err error) {
	t.Helper()
	if err != nil {
		var perr *Error
		if !errors.As(err, &perr) || len(perr.Diagnostics) == 0 || err.Error() == "" {
			t.Fatalf("Parse(%s) error %T %q: want a non-empty *Error", name, err, err)
		}
		if j != nil || warns != nil {
			t.Fatalf("Parse(%s) returned a job or warnings with an error", name)
		}
		return
	}
	if j == nil {
		t.Fatalf("Parse(%s) = nil job, nil error", name)
	}
	if j.Namespace == "" || j.Type == "" {
		t.Fatalf("Parse(%s): not canonical: namespace %q type %q", name, j.Namespace, j.Type)
	}
	for _, tg := range j.TaskGroups {
		rp := tg.RestartPolicy
		if rp == nil || rp.Attempts == nil || rp.Interval == nil || rp.Delay == nil || rp.Mode == nil {
			t.Fatalf("Parse(%s): group %q restart policy not canonical: %+v", name, tg.Name, rp)
		}
		for _, task := range tg.Tasks {
			if task.KillTimeout == 0 || task.KillSignal == "" {
				t.Fatalf("Parse(%s): task %q not canonical", name, task.Name)
			}
		}
	}
	raw, err := json.Marshal(goldenDoc{Job: j})
	if err != nil {
		t.Fatalf("Parse(%s): job does not marshal: %v", name, err)
	}
	back, _, err := ParseJSON("back.json", raw)
	if err != nil {
		t.Fatalf("Parse(%s): round trip: %v\n%s", name, err, raw)
	}
	if diff := cmp.Diff(j, back); diff != "" {
		t.Fatalf("Parse(%s): JSON round trip changed the job (-parsed +back):\n%s", name, diff)
	}
}
