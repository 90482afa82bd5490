package restore

import (
	"fmt"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// drawCrashesStopped is drawCrashes with, one run in three, the job
// stopped while the client is down after its first crash: the restored
// client learns of the stop from its first alloc pull, the one that
// contacts the servers, which also releases the tasks whose recovery
// failed (STATE-4).
func drawCrashesStopped(d *prop.Drawer, env prop.Env) scenario.Scenario {
	sc := drawCrashes(d, env)
	crashes := sc.Faults.Of(faults.ClientCrash)
	if len(crashes) == 0 || d.IntRange("stop while down", 0, 2) != 0 {
		return sc
	}
	c := crashes[0]
	at := c.At + d.Duration("stop into downtime", 0, c.For-time.Millisecond, 100*time.Millisecond)
	sc.Calls = append(sc.Calls, scenario.Call{At: scenario.Duration(at), Op: scenario.OpStopJob, Job: sc.Jobs[0].Job.ID})
	return sc
}

// stoppedBeforeRestart checks that no task starts once a restored client
// has contacted the servers, when the job was stopped before the client
// restarted: the pull that contacts them hands every runner the
// server-terminal alloc (AR-10), a task waiting for the servers then
// holds before prestart until the kill (AR-5: no prestart for terminal
// allocs; AR-6 re-checks before the driver start), and nothing else of a
// stopped alloc starts (the scenarios have no poststop task). Without it
// a task runner that does not adopt the alloc it is handed starts the
// task of a stopped alloc, only to see it killed.
type stoppedBeforeRestart struct {
	stopAt  time.Time // the job stop, zero for none
	started time.Time // the running incarnation's start
	inc     int
}

func newStoppedBeforeRestart(sc scenario.Scenario) *stoppedBeforeRestart {
	c := &stoppedBeforeRestart{}
	for _, call := range sc.Calls {
		if call.Op == scenario.OpStopJob {
			c.stopAt = sc.Start.Add(call.At.D())
			break
		}
	}
	return c
}

func (c *stoppedBeforeRestart) settled(v *prop.View) {
	if c.stopAt.IsZero() {
		return
	}
	for _, r := range v.New {
		if r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart {
			c.started = r.At
			c.inc, _ = v.World.Incarnation()
		}
	}
	if c.inc < 2 || !c.stopAt.Before(c.started) {
		return
	}
	contact, ok := v.World.FirstContact(c.inc)
	if !ok {
		return
	}
	for _, r := range v.New {
		if r.Kind == trace.KindDriver && drivers.Op(r.Op) == drivers.OpStart && !r.At.Before(contact.At) {
			v.Violatef(r.Alloc, r.Task, fmt.Sprintf("driver StartTask after client incarnation %d contacted the servers, the job stopped at %s while it was down",
				c.inc, prop.When(c.stopAt, nil)), "StartTask",
				"none: the first pull hands the runner the stopped alloc, and a task of a server-terminal alloc does not start (AR-5, AR-6, AR-10)")
			v.Reach("stopped-while-down")
			return
		}
	}
	v.Reach("stopped-while-down")
}
