package nomadcmd

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

const (
	evalID = "e0e0e0e0-1111-2222-3333-444455556666"
)

const sleeperHCL = `job "sleeper" {
  group "g" {
    count = 2
    task "sleeper" {
      driver = "mock_driver"
      config {
        run_for = "1h"
      }
      schedule {
        cron {
          start    = "0 9 * * * *"
          end      = "0 17"
          timezone = "UTC"
        }
      }
    }
  }
}
`

// placeAll places one pending alloc per count of each group, with IDs
// 00000001-..., 00000002-..., ...
func placeAll(job *structs.Job) []*structs.Allocation {
	var out []*structs.Allocation
	for _, tg := range job.TaskGroups {
		for range tg.Count {
			id := fmt.Sprintf("%08d-aaaa-bbbb-cccc-dddddddddddd", len(out)+1)
			a := newAlloc(id, node, job.ID, tg.Name, "t")
			a.ClientStatus = structs.AllocClientStatusPending
			out = append(out, a)
		}
	}
	return out
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	must.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

func jobRun(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.Report(&stderr, "job run", JobRun("job run", args, &stdout, &stderr))
	return code, stdout.String(), stderr.String()
}

func TestRunRegistersAndListsAllocs(t *testing.T) {
	srv := &fakeAgent{EvalID: evalID, Place: placeAll}
	addr := serveFake(t, srv, schedule.ProfileEnt)
	path := writeFile(t, "sleeper.hcl", sleeperHCL)

	code, stdout, stderr := jobRun("-address", addr, path)
	must.Eq(t, 0, code, must.Sprint(stderr))
	must.Eq(t, "", stderr)
	must.Eq(t, `Job "sleeper" registered: evaluation `+evalID+` at index 1
Allocations placed:
ID        Node ID   Job ID   Task Group  Desired  Status
00000001  0f1e2d3c  sleeper  g           run      pending
00000002  0f1e2d3c  sleeper  g           run      pending
`, stdout)
	jobs := srv.Jobs()
	must.Len(t, 1, jobs)
	must.Eq(t, "sleeper", jobs[0].ID)
	must.Eq(t, "0 9 * * * *", jobs[0].TaskGroups[0].Tasks[0].Schedule.Cron.Start)
	must.Eq(t, "1h", jobs[0].TaskGroups[0].Tasks[0].Config["run_for"])
}

// TestRunListsOnlyThisRegistration: allocs of an earlier registration
// that the new one stopped are not listed.
func TestRunListsOnlyThisRegistration(t *testing.T) {
	srv := &fakeAgent{EvalID: evalID, Place: placeAll}
	old := newAlloc("99999999-aaaa-bbbb-cccc-dddddddddddd", node, "sleeper", "g", "t")
	old.DesiredStatus = structs.AllocDesiredStatusStop
	srv.AddAlloc(old)
	addr := serveFake(t, srv, schedule.ProfileEnt)
	path := writeFile(t, "sleeper.hcl", sleeperHCL)

	code, stdout, _ := jobRun("-address", addr, "-verbose", path)
	must.Eq(t, 0, code)
	must.StrContains(t, stdout, "00000001-aaaa-bbbb-cccc-dddddddddddd  0f1e2d3c-0000-0000-0000-000000000000")
	must.StrNotContains(t, stdout, "99999999")
}

func TestRunJSONAndDetach(t *testing.T) {
	srv := &fakeAgent{EvalID: evalID, Place: placeAll}
	addr := serveFake(t, srv, schedule.ProfileEnt)
	path := writeFile(t, "job.json", `{"Job":{"ID":"j","TaskGroups":[{"Name":"g","Tasks":[{"Name":"t","Driver":"mock_driver"}]}]}}`)
	code, stdout, stderr := jobRun("-address", addr, "-detach", path)
	must.Eq(t, 0, code, must.Sprint(stderr))
	must.Eq(t, `Job "j" registered: evaluation `+evalID+" at index 1\n", stdout)
	must.Len(t, 1, srv.Jobs())
}

func TestRunNothingPlaced(t *testing.T) {
	srv := &fakeAgent{EvalID: evalID, Place: placeAll}
	addr := serveFake(t, srv, schedule.ProfileEnt)
	path := writeFile(t, "zero.hcl", `job "z" {
  group "g" {
    count = 0
    task "t" {
      driver = "mock_driver"
    }
  }
}
`)
	code, stdout, stderr := jobRun("-address", addr, path)
	must.Eq(t, 0, code, must.Sprint(stderr))
	must.StrContains(t, stdout, "\nNo allocations placed.\n")
}

// TestRunFewerPlaced: when the allocs do not all appear within -timeout,
// those found are listed and a note goes to stderr; the job is registered,
// so the exit code is 0.
func TestRunFewerPlaced(t *testing.T) {
	srv := &fakeAgent{EvalID: evalID, Place: func(job *structs.Job) []*structs.Allocation {
		return placeAll(job)[:1]
	}}
	addr := serveFake(t, srv, schedule.ProfileEnt)
	path := writeFile(t, "sleeper.hcl", sleeperHCL)
	code, stdout, stderr := jobRun("-address", addr, "-timeout", "0s", path)
	must.Eq(t, 0, code)
	must.StrContains(t, stdout, "00000001")
	must.Eq(t, "Only 1 of 2 allocations were placed within 0s.\n", stderr)
}

func TestRunRejected(t *testing.T) {
	srv := &fakeAgent{EvalID: evalID, Place: placeAll}
	addr := serveFake(t, srv, schedule.ProfileCE)
	path := writeFile(t, "sleeper.hcl", sleeperHCL)
	code, stdout, stderr := jobRun("-address", addr, path)
	must.Eq(t, 1, code)
	must.Eq(t, "", stdout)
	must.Eq(t, `conform job run: registering job "sleeper": Unexpected response code: 500 (1 error occurred:
	* task schedules requires Nomad Enterprise)
`, stderr) // the official client trims the body
	must.Len(t, 0, srv.Jobs())

	srv = &fakeAgent{RegisterErr: errors.New("no node to place job")}
	addr = serveFake(t, srv, schedule.ProfileEnt)
	code, _, stderr = jobRun("-address", addr, path)
	must.Eq(t, 1, code)
	must.StrContains(t, stderr, "no node to place job")
}

func TestRunInputErrors(t *testing.T) {
	bad := writeFile(t, "bad.hcl", `job "x" {
  group "g" {
    task "t" {
      drivr = "mock_driver"
    }
  }
}
`)
	warn := writeFile(t, "warn.hcl", `job "w" {
  datacenters = ["dc1"]
  group "g" {
    task "t" {
      driver = "mock_driver"
    }
  }
}
`)
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	cases := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"no file", nil, 2, []string{"conform job run: job run takes exactly one argument, the jobspec file (HCL or JSON); got 0\n",
			"Run 'conform job run --help' for usage."}},
		{"two files", []string{bad, warn}, 2, []string{"got 2"}},
		{"negative timeout", []string{"-timeout", "-1s", bad}, 2, []string{"invalid -timeout -1s"}},
		{"unknown flag", []string{"-frobnicate", bad}, 2, []string{"flag provided but not defined: -frobnicate"}},
		{"missing file", []string{filepath.Join(t.TempDir(), "nope.hcl")}, 1, []string{"reading the jobspec: open "}},
		{"parse error", []string{bad}, 2, []string{bad + ":4,7-12: Unsupported argument;", `Did you mean "driver"?`}},
		{"warning, then unreachable agent", []string{"-address", dead.URL, warn}, 1,
			[]string{"Warning: " + warn + ":2,3-14: ", `conform job run: registering job "w": `}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := jobRun(tc.args...)
			must.Eq(t, tc.code, code, must.Sprint(stderr))
			must.Eq(t, "", stdout)
			for _, c := range tc.contains {
				must.StrContains(t, stderr, c)
			}
		})
	}
}

// TestRunAddress: NOMAD_ADDR is the default address.
func TestRunAddress(t *testing.T) {
	srv := &fakeAgent{EvalID: evalID, Place: placeAll}
	t.Setenv("NOMAD_ADDR", serveFake(t, srv, schedule.ProfileEnt))
	code, _, stderr := jobRun("-detach", writeFile(t, "sleeper.hcl", sleeperHCL))
	must.Eq(t, 0, code, must.Sprint(stderr))
	must.Len(t, 1, srv.Jobs())
}

func TestRunHelp(t *testing.T) {
	code, stdout, stderr := jobRun("--help")
	must.Eq(t, 0, code)
	must.Eq(t, "", stderr)
	var o runOptions
	newRunFlagSet("job run", &o).VisitAll(func(f *flag.Flag) {
		must.StrContains(t, stdout, "  -"+f.Name)
	})
}
