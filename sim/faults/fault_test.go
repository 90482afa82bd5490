package faults

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

// TestFaultPrintParse: every class prints as a plan line that parses back
// to the same fault.
func TestFaultPrintParse(t *testing.T) {
	cases := []struct {
		f    Fault
		line string
	}{
		{Fault{Class: DriverStartDelay, Rate: 0.25, Max: 1500 * time.Millisecond}, "driver_start_delay rate=0.25 max=1.5s"},
		{Fault{Class: DriverStartFailure, Rate: 1, Recoverable: true, Until: time.Minute}, "driver_start_failure rate=1 recoverable=true until=1m0s"},
		{Fault{Class: DriverExit, Rate: 0.1, Max: 5 * time.Minute}, "driver_exit rate=0.1 max=5m0s"},
		{Fault{Class: DriverStopHang, Rate: 0.5}, "driver_stop_hang rate=0.5"},
		{Fault{Class: ClientCrash, At: 90 * time.Second, For: 5 * time.Second}, "client_crash at=1m30s for=5s"},
		{Fault{Class: DriverRecoverFailure, Rate: 0.05}, "driver_recover_failure rate=0.05"},
		{Fault{Class: CSIMountLatency, Rate: 0.3, Max: time.Second}, "csi_mount_latency rate=0.3 max=1s"},
		{Fault{Class: CSIMountFailure, Rate: 0.2}, "csi_mount_failure rate=0.2"},
		{Fault{Class: StateDBWriteFailure, Rate: 0.01}, "statedb_write_failure rate=0.01"},
		{Fault{Class: RPCLatency, Rate: 0.4, Max: 700 * time.Millisecond}, "rpc_latency rate=0.4 max=700ms"},
		{Fault{Class: RPCFailure, Rate: 0.3, Until: 2 * time.Minute}, "rpc_failure rate=0.3 until=2m0s"},
		{Fault{Class: RPCPartition, At: time.Minute, For: 30 * time.Second}, "rpc_partition at=1m0s for=30s"},
		{Fault{Class: ClockJump, At: 0, For: 2 * time.Hour}, "clock_jump at=0s for=2h0m0s"},
		{Fault{Class: DriverStopFailure, Rate: 1}, "driver_stop_failure rate=1"},
		{Fault{Class: NodeDisconnect, At: 2 * time.Minute, For: 45 * time.Second}, "node_disconnect at=2m0s for=45s"},
		{Fault{Class: AllocDirLoss, Rate: 0.5}, "alloc_dir_loss rate=0.5"},
		{Fault{Class: ClientRestart, At: 40 * time.Second, For: 3 * time.Second}, "client_restart at=40s for=3s"},
		{Fault{Class: RunnerBuildFailure, Rate: 0.4}, "runner_build_failure rate=0.4"},
	}
	must.EqOp(t, len(Classes()), len(cases), must.Sprint("one case per class"))
	for _, c := range cases {
		t.Run(string(c.f.Class), func(t *testing.T) {
			must.Eq(t, c.line, c.f.String())
			got, err := ParseFault(c.line)
			must.NoError(t, err)
			must.Eq(t, c.f, got)
			b, err := json.Marshal(c.f)
			must.NoError(t, err)
			var back Fault
			must.NoError(t, json.Unmarshal(b, &back))
			must.Eq(t, c.f, back)
			must.NotEq(t, "", c.f.Class.Describe())
		})
	}
}

// TestParseFaultErrors: each malformed line is refused with a message
// naming what is wrong.
func TestParseFaultErrors(t *testing.T) {
	cases := []struct{ line, want string }{
		{"", `unknown fault class ""`},
		{"meteor_strike rate=1", `unknown fault class "meteor_strike"`},
		{"rpc_failure", "fault rpc_failure: missing rate"},
		{"rpc_failure rate", `fault rpc_failure: "rate" is not key=value`},
		{"rpc_failure rate=2", `fault rpc_failure: bad rate="2": rate must be in (0, 1]`},
		{"rpc_failure rate=0", `fault rpc_failure: bad rate="0": rate must be in (0, 1]`},
		{"rpc_failure rate=x", `fault rpc_failure: bad rate="x"`},
		{"rpc_failure rate=0.1 at=1s", `fault rpc_failure: unknown parameter "at"`},
		{"client_crash at=1s", "fault client_crash: missing for"},
		{"client_crash at=-1s for=1s", `fault client_crash: bad at="-1s": negative duration`},
		{"driver_start_failure rate=0.1 recoverable=maybe", `fault driver_start_failure: bad recoverable="maybe"`},
	}
	for _, c := range cases {
		_, err := ParseFault(c.line)
		must.ErrorContains(t, err, c.want, must.Sprintf("line %q", c.line))
	}
	var f Fault
	must.Error(t, json.Unmarshal([]byte(`42`), &f))
	must.Error(t, json.Unmarshal([]byte(`"nope"`), &f))
}

func TestPlan(t *testing.T) {
	text := `# a plan
rpc_partition at=2m0s for=10s
client_crash at=1m0s for=5s
rpc_failure rate=0.2 until=3m0s

driver_start_failure rate=0.1 recoverable=false until=1m0s`
	p, err := ParsePlan(text)
	must.NoError(t, err)
	must.SliceLen(t, 4, p)
	must.True(t, p.Has(RPCFailure))
	must.False(t, p.Has(ClockJump))
	must.SliceLen(t, 1, p.Of(ClientCrash))
	timed := p.Timed()
	must.Eq(t, []Class{ClientCrash, RPCPartition}, []Class{timed[0].Class, timed[1].Class})
	end, ok := p.HealedBy()
	must.True(t, ok)
	must.EqOp(t, 3*time.Minute, end)
	p2 := append(Plan{}, p...)
	p2 = append(p2, Fault{Class: DriverStopHang, Rate: 0.1})
	_, ok = p2.HealedBy()
	must.False(t, ok, must.Sprint("a per-call fault without until never heals"))

	back, err := ParsePlan(p.String())
	must.NoError(t, err)
	must.Eq(t, p, back)
	must.Eq(t, "(no faults)", Plan(nil).String())
	empty, err := ParsePlan(Plan(nil).String())
	must.NoError(t, err)
	must.SliceEmpty(t, empty)

	_, err = ParsePlan("rpc_failure rate=0.1\nbogus")
	must.ErrorContains(t, err, "fault plan line 2")

	b, err := json.Marshal(p)
	must.NoError(t, err)
	var fromJSON Plan
	must.NoError(t, json.Unmarshal(b, &fromJSON))
	if diff := cmp.Diff(p, fromJSON); diff != "" {
		t.Fatalf("JSON round trip (-want +got):\n%s", diff)
	}
}

// TestApplies: classes apply only where they can happen (STYLE rule 11).
func TestApplies(t *testing.T) {
	none := Shape{}
	tasks := Shape{Tasks: 2, Duration: time.Minute}
	csi := Shape{Tasks: 2, CSIVolumes: 1, Duration: time.Minute}
	crash := Shape{Tasks: 2, Crashes: 1, Duration: time.Minute}
	short := Shape{Tasks: 1, Duration: 5 * time.Second}
	cases := []struct {
		c    Class
		s    Shape
		want bool
	}{
		{DriverStartFailure, none, false},
		{DriverStartFailure, tasks, true},
		{CSIMountFailure, tasks, false},
		{CSIMountFailure, csi, true},
		{DriverRecoverFailure, tasks, false},
		{DriverRecoverFailure, crash, true},
		{RPCPartition, short, false},
		{RPCPartition, tasks, true},
		{ClientCrash, none, false},
		{Class("nope"), tasks, false},
	}
	for _, c := range cases {
		must.EqOp(t, c.want, c.c.Applies(c.s), must.Sprintf("%s on %+v", c.c, c.s))
	}
	err := Plan{{Class: CSIMountFailure, Rate: 0.1}}.Validate(tasks)
	must.ErrorContains(t, err, "csi_mount_failure does not apply")
	err = Plan{{Class: RPCFailure, Rate: 0.1}, {Class: RPCFailure, Rate: 0.2}, {Class: "x"}}.Validate(tasks)
	must.ErrorContains(t, err, "rpc_failure listed twice")
	must.ErrorContains(t, err, `unknown fault class "x"`)
	must.NoError(t, Plan{{Class: ClientCrash, At: 1, For: 1}, {Class: ClientCrash, At: 2, For: 1}}.Validate(tasks))
}
