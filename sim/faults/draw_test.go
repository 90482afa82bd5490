package faults

import (
	"errors"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/sim/seeds"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
	"pgregory.net/rapid"
)

type rapidDrawer struct{ t *rapid.T }

func (d rapidDrawer) IntRange(label string, lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return rapid.IntRange(lo, hi).Draw(d.t, label)
}
func (d rapidDrawer) Bool(label string) bool { return rapid.Bool().Draw(d.t, label) }

// TestDrawProperties: a drawn plan fits its scenario, prints and parses
// back unchanged, and its timed faults lie within the run.
func TestDrawProperties(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s := Shape{
			Tasks:      rapid.IntRange(0, 6).Draw(rt, "tasks"),
			CSIVolumes: rapid.IntRange(0, 2).Draw(rt, "csi"),
			Duration:   time.Duration(rapid.IntRange(1, 3600).Draw(rt, "secs")) * time.Second,
		}
		p := Draw(rapidDrawer{rt}, s)
		s.Crashes = len(p.Of(ClientCrash))
		if err := p.Validate(s); err != nil {
			rt.Fatalf("drawn plan does not fit: %v\n%s", err, p)
		}
		back, err := ParsePlan(p.String())
		if err != nil {
			rt.Fatal(err)
		}
		must.Eq(rt, p, back)
		for _, f := range p {
			if f.Class.Timed() && f.At >= s.Duration {
				rt.Fatalf("%s starts after the run", f)
			}
		}
	})
}

// TestSwarm: across seeds, each applicable class is sometimes on and
// sometimes off (swarm testing switches classes per run).
func TestSwarm(t *testing.T) {
	s := Shape{Tasks: 3, CSIVolumes: 1, Duration: 10 * time.Minute}
	on := map[Class]int{}
	const n = 200
	for seed := uint64(0); seed < n; seed++ {
		for _, c := range Classes() {
			if Draw(seeds.RandDrawer{R: seeds.Stream(seed, "plan")}, s).Has(c) {
				on[c]++
			}
		}
	}
	for _, c := range Classes() {
		if !c.Swarmed() {
			must.EqOp(t, 0, on[c], must.Sprintf("%s is unswarmed, yet drawn", c))
			continue
		}
		must.Between(t, 1, on[c], n-1, must.Sprintf("%s on in %d of %d runs", c, on[c], n))
	}
}

var t0 = time.Date(2024, 6, 14, 9, 0, 0, 0, time.UTC)

func injector(plan Plan, clk *vclock.Clock, fired *[]Fired) *Injector {
	cfg := Config{Seed: 99, Plan: plan, Start: t0, OnFire: func(f Fired) {
		if fired != nil {
			*fired = append(*fired, f)
		}
	}}
	if clk != nil {
		cfg.Clock = clk
	}
	return NewInjector(cfg)
}

// TestDecisionsDoNotDependOnCallOrder: per-call decisions are keyed by
// the call's subject and ordinal, so interleaving calls of different keys
// changes nothing (DET-3).
func TestDecisionsDoNotDependOnCallOrder(t *testing.T) {
	plan := Plan{{Class: RPCFailure, Rate: 0.5}, {Class: RPCLatency, Rate: 0.5, Max: time.Second}}
	type outcome struct {
		lat time.Duration
		err bool
	}
	run := func(order []string) map[string][]outcome {
		in := injector(plan, nil, nil)
		out := map[string][]outcome{}
		for _, m := range order {
			lat, err := in.RPC(m)
			out[m] = append(out[m], outcome{lat, err != nil})
		}
		return out
	}
	a := run([]string{"A", "A", "B", "A", "B", "B", "A", "B"})
	b := run([]string{"B", "B", "B", "A", "B", "A", "A", "A"})
	must.Eq(t, a, b)
}

func TestInjectorPoints(t *testing.T) {
	clk := vclock.New(t0)
	var fired []Fired
	plan := Plan{
		{Class: DriverStartDelay, Rate: 1, Max: time.Second},
		{Class: DriverStartFailure, Rate: 1, Recoverable: true},
		{Class: DriverExit, Rate: 1, Max: time.Minute},
		{Class: DriverStopHang, Rate: 1},
		{Class: DriverRecoverFailure, Rate: 1},
		{Class: CSIMountLatency, Rate: 1, Max: time.Second},
		{Class: CSIMountFailure, Rate: 1},
		{Class: StateDBWriteFailure, Rate: 1},
		{Class: RPCLatency, Rate: 1, Max: time.Second},
		{Class: RPCFailure, Rate: 1, Until: time.Minute},
		{Class: ClientCrash, At: 0, For: time.Second}, // timed: ignored here
	}
	in := injector(plan, clk, &fired)
	d := in.Driver()
	sf := d.StartTask(&drivers.TaskConfig{ID: "a1/web"})
	must.Between(t, 1, sf.Delay, time.Second)
	must.True(t, errors.Is(sf.Err, ErrDriverStart))
	must.True(t, drivers.IsRecoverable(sf.Err))
	must.NotNil(t, sf.Exit)
	must.Between(t, 1, sf.Exit.After, time.Minute)
	must.False(t, sf.Exit.Result.Successful(), must.Sprint("an injected exit fails"))
	must.True(t, errors.Is(d.RecoverTask(&drivers.TaskHandle{TaskID: "a1/web"}), ErrDriverRecover))
	must.True(t, d.StopTask("a1/web", 5*time.Second, "SIGINT").Hang)

	lat, err := in.CSIMount("a1", "data")
	must.Positive(t, lat)
	must.ErrorIs(t, err, ErrCSIMount)
	must.ErrorIs(t, in.StateDBWrite(state.Write{Op: state.OpPut, AllocID: "a1", Task: "web", Key: state.KeyTaskState}), ErrStateDBWrite)
	lat, err = in.RPC("Node.UpdateAlloc")
	must.Positive(t, lat)
	must.ErrorIs(t, err, ErrRPC)

	clk.Add(time.Minute)
	_, err = in.RPC("Node.UpdateAlloc")
	must.NoError(t, err, must.Sprint("rpc_failure healed at until=1m"))

	byClass := map[Class]Fired{}
	for _, f := range fired {
		byClass[f.Class] = f
	}
	must.MapLen(t, 10, byClass)
	must.Eq(t, Fired{Class: StateDBWriteFailure, Key: "put a1/task-web/task_state", Alloc: "a1", Task: "web",
		Detail: "error=simulated state DB write failure"}, byClass[StateDBWriteFailure])
	must.EqOp(t, "a1", byClass[DriverStopHang].Alloc)
	must.EqOp(t, "web", byClass[DriverStopHang].Task)
	must.EqOp(t, "", byClass[RPCFailure].Alloc)

	quiet := injector(nil, clk, nil)
	must.Eq(t, quiet.Driver().StartTask(&drivers.TaskConfig{ID: "a/b"}), quiet.Driver().StartTask(&drivers.TaskConfig{ID: "a/b"}))
	must.NoError(t, quiet.Driver().RecoverTask(&drivers.TaskHandle{TaskID: "a/b"}))
	must.False(t, quiet.Driver().StopTask("a/b", time.Second, "").Hang)
	must.NoError(t, quiet.StateDBWrite(state.Write{}))
	lat, err = quiet.CSIMount("a", "b")
	must.NoError(t, err)
	must.EqOp(t, 0, lat)
}

// TestRatesAreRespected: with rate r, about r of the calls fire.
func TestRatesAreRespected(t *testing.T) {
	in := injector(Plan{{Class: RPCFailure, Rate: 0.25}}, nil, nil)
	failed := 0
	const n = 4000
	for i := 0; i < n; i++ {
		if _, err := in.RPC("m"); err != nil {
			failed++
		}
	}
	must.Between(t, n/5, failed, n*3/10)
}

// TestStopFailure: driver_stop_failure fails StopTask before any signal
// (so no hang is decided for it), keyed by the task like the others.
func TestStopFailure(t *testing.T) {
	var fired []Fired
	in := injector(Plan{{Class: DriverStopFailure, Rate: 1}, {Class: DriverStopHang, Rate: 1}}, vclock.New(t0), &fired)
	sf := in.Driver().StopTask("a1/web", 5*time.Second, "SIGINT")
	must.ErrorIs(t, sf.Err, ErrDriverStop)
	must.False(t, sf.Hang)
	must.Eq(t, []Fired{{Class: DriverStopFailure, Key: "a1/web", Alloc: "a1", Task: "web", Detail: "error=" + ErrDriverStop.Error()}}, fired)
}

// TestStateDBWriteKey: a statedb_write_failure with key= prints and
// parses, and fails only the writes of that key.
func TestStateDBWriteKey(t *testing.T) {
	f := Fault{Class: StateDBWriteFailure, Rate: 1, Key: "acknowledged_state"}
	must.EqOp(t, "statedb_write_failure rate=1 key=acknowledged_state", f.String())
	back, err := ParseFault(f.String())
	must.NoError(t, err)
	must.Eq(t, f, back)
	in := injector(Plan{f}, nil, nil)
	must.NoError(t, in.StateDBWrite(state.Write{Op: state.OpPut, AllocID: "a1", Task: "web", Key: state.KeyTaskState}))
	must.ErrorIs(t, in.StateDBWrite(state.Write{Op: state.OpPut, AllocID: "a1", Key: state.KeyAcknowledgedState}), ErrStateDBWrite)
}
