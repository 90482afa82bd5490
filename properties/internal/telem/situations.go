package telem

import (
	"encoding/json"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/telemetry"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/trace"
)

// The situations are counted at the end of a run, from what the world
// observed (port calls, emissions) and the trace.

var labelSituations = []prop.Situation{
	{Name: "default-namespace", Doc: "an emission of an alloc in the default namespace"},
	{Name: "own-namespace", Doc: "an emission of an alloc in a namespace of its own"},
	{Name: "namespaces-one-instant", Doc: "emissions of two namespaces at one instant"},
	{Name: "prerun-labels", Doc: "an alloc_hook prerun emission"},
	{Name: "prestart-labels", Doc: "a task_hook prestart emission"},
	{Name: "failed-counter", Doc: "a failed counter"},
	{Name: "restarted-client", Doc: "an emission of a restarted client (base labels built again)"},
	{Name: "node-class-set", Doc: "a node with a class: node_class is the class, not none"},
}

func reachLabels(v *prop.View, o observed) {
	nsAt := map[int64]string{}
	for _, e := range o.ems {
		if !e.known {
			continue
		}
		if e.ns == "default" {
			v.Reach("default-namespace")
		} else {
			v.Reach("own-namespace")
		}
		at := e.At.UnixNano()
		if ns, ok := nsAt[at]; ok && ns != e.ns {
			v.Reach("namespaces-one-instant")
		}
		nsAt[at] = e.ns
		if e.kind == telemetry.AllocHook {
			v.Reach("prerun-labels")
		} else {
			v.Reach("prestart-labels")
		}
		if e.metric == telemetry.MetricFailed {
			v.Reach("failed-counter")
		}
		if e.Incarnation > 1 {
			v.Reach("restarted-client")
		}
		for _, l := range e.Labels {
			if l.Name == telemetry.LabelNodeClass && l.Value != "none" {
				v.Reach("node-class-set")
			}
		}
	}
}

var emissionSituations = []prop.Situation{
	{Name: "prerun-failure-stops-pass", Doc: "a prerun hook failed: the later prerun hooks emit nothing"},
	{Name: "prestart-failure-stops-pass", Doc: "a prestart hook failed: the later prestart hooks emit nothing"},
	{Name: "restart-repeats-prestart", Doc: "a task's prestart ran again in one incarnation (a restart): metrics repeat"},
	{Name: "done-hook-skipped", Doc: "a prestart pass that skipped the Done validate hook (emits nothing for it)"},
	{Name: "pause-restart-prestart", Doc: "prestart ran again after a pause-induced restart"},
	{Name: "restore-reruns-prerun", Doc: "a restored client ran an alloc's prerun again"},
	{Name: "terminal-alloc-restored", Doc: "a client restarted with a client-terminal alloc: no prerun, no metric"},
	{Name: "crash-mid-hook", Doc: "the client crashed while a hook's port call was under way: that execution emits nothing"},
	{Name: "csi-pass", Doc: "a csi_hook prerun execution (CSI mounts)"},
}

// reachTerminalRestore counts a restart of the client holding an alloc
// whose status was client-terminal (AR-4: it should not run).
func reachTerminalRestore(v *prop.View) {
	for _, r := range v.New {
		if r.Kind != trace.KindWorld || r.Msg != trace.MsgClientStart || incarnationOf(r) < 2 {
			continue
		}
		for _, a := range v.Allocs() {
			if terminal(a.ClientStatus) {
				v.Reach("terminal-alloc-restored")
			}
		}
	}
}

func reachEmissions(v *prop.View, o observed) {
	for _, e := range o.ems {
		if e.known && e.metric == telemetry.MetricFailed {
			if e.kind == telemetry.AllocHook {
				v.Reach("prerun-failure-stops-pass")
			} else {
				v.Reach("prestart-failure-stops-pass")
			}
		}
		if e.known && e.hook == telemetry.HookCSI {
			v.Reach("csi-pass")
		}
	}
	type task struct {
		inc         int
		alloc, task string
	}
	builds := map[task]int{}
	firstBuild := map[[2]string]int{} // alloc/task → the first incarnation it was built in
	prerun := map[string]int{}        // alloc → the first incarnation of its prerun
	for _, c := range o.calls {
		if !c.Returned || !c.Live {
			v.Reach("crash-mid-hook")
		}
		switch c.Op {
		case sim.PortTaskDirBuild:
			k := task{c.Incarnation, c.Alloc, c.Task}
			if builds[k]++; builds[k] > 1 {
				v.Reach("restart-repeats-prestart")
			}
			at := [2]string{c.Alloc, c.Task}
			if first, ok := firstBuild[at]; !ok {
				firstBuild[at] = c.Incarnation
			} else if builds[k] > 1 || c.Incarnation > first {
				v.Reach("done-hook-skipped")
			}
		case sim.PortAllocDirBuild:
			if first, ok := prerun[c.Alloc]; !ok {
				prerun[c.Alloc] = c.Incarnation
			} else if c.Incarnation > first {
				v.Reach("restore-reruns-prerun")
			}
		}
	}
	// A task dir Build after the task's pause stop in one incarnation is
	// the prestart of the restart the pause caused.
	inc := 0
	paused := map[task]time.Time{}
	for _, r := range v.Records() {
		switch {
		case r.Kind == trace.KindWorld && r.Msg == trace.MsgClientStart:
			inc = incarnationOf(r)
		case r.Kind == trace.KindTaskEvent && r.Msg == structs.TaskRestarting && restartReason(r) == "":
			if _, ok := paused[task{inc, r.Alloc, r.Task}]; !ok {
				paused[task{inc, r.Alloc, r.Task}] = r.At
			}
		}
	}
	for _, c := range o.calls {
		if at, ok := paused[task{c.Incarnation, c.Alloc, c.Task}]; ok && c.Op == sim.PortTaskDirBuild && !c.Invoke.Before(at) {
			v.Reach("pause-restart-prestart")
		}
	}
}

var elapsedSituations = []prop.Situation{
	{Name: "blocking-build", Doc: "a dir Build that blocked for virtual time: elapsed is that time"},
	{Name: "sub-millisecond-part", Doc: "a hook duration with a sub-millisecond part: float ms, not rounded"},
	{Name: "zero-time-hook", Doc: "a hook taking no virtual time: elapsed 0"},
	{Name: "csi-blocking", Doc: "a csi_hook execution spanning slow mounts"},
	{Name: "failed-hook-elapsed", Doc: "the elapsed sample of a failed execution"},
	{Name: "clock-jump-during-hook", Doc: "a clock jump while a hook's port call was under way"},
	{Name: "crash-mid-hook", Doc: "the client crashed while a hook's port call was under way: no sample"},
}

func reachElapsed(v *prop.View, o observed) {
	var jumps [][2]time.Time
	for _, r := range v.Records() {
		if r.Kind == trace.KindWorld && r.Msg == "clock_resumed" {
			var d struct{ From string }
			from := r.At
			if json.Unmarshal(r.Data, &d) == nil {
				if t, err := time.Parse(trace.TimeFormat, d.From); err == nil {
					from = t
				}
			}
			jumps = append(jumps, [2]time.Time{from, r.At})
		}
	}
	for _, c := range o.calls {
		if !c.Returned || !c.Live {
			v.Reach("crash-mid-hook")
			continue
		}
		if d := c.Duration(); d > 0 && (c.Op == sim.PortAllocDirBuild || c.Op == sim.PortTaskDirBuild) {
			v.Reach("blocking-build")
			if d%time.Millisecond != 0 {
				v.Reach("sub-millisecond-part")
			}
		}
		for _, j := range jumps {
			if !j[1].Before(c.Invoke) && !j[0].After(c.Return) {
				v.Reach("clock-jump-during-hook")
			}
		}
	}
	failedAt := map[slot]bool{}
	for _, e := range o.ems {
		if e.known && e.metric == telemetry.MetricFailed {
			s := e.slot("")
			failedAt[s] = true
		}
	}
	for _, e := range o.ems {
		if !e.known || e.metric != telemetry.MetricElapsed {
			continue
		}
		switch {
		case e.hook == telemetry.HookCSI && e.Value > 0:
			v.Reach("csi-blocking")
		case e.Value == 0:
			v.Reach("zero-time-hook")
		}
		if failedAt[e.slot("")] {
			v.Reach("failed-hook-elapsed")
		}
	}
}

// disableSituations are TELEM-5's cases a run can show. TELEM-5's last
// sentence ("an overlay's explicit value wins") is not among them: it is
// how the agent resolves its configuration files into the client field,
// and a run never has an agent configuration: the world hands the runner
// the resolved DisableAllocationHookMetrics (AR-2's ClientConfig), so no
// run can tell an overlay's value from any other. The agent's own
// configuration tests are where that rule can be checked.
var disableSituations = []prop.Situation{
	{Name: "prerun-ran", Doc: "prerun hooks executed (they would emit with the switch off)"},
	{Name: "prestart-ran", Doc: "prestart hooks executed (they would emit with the switch off)"},
	{Name: "hook-failed", Doc: "a hook execution failed (it would emit failed)"},
	{Name: "restarted-client", Doc: "a restarted client: the switch applies to its new incarnation too"},
}

func reachDisable(v *prop.View) {
	for _, c := range v.World.PortCalls() {
		switch c.Op {
		case sim.PortAllocDirBuild:
			v.Reach("prerun-ran")
		case sim.PortTaskDirBuild:
			v.Reach("prestart-ran")
		}
		if c.Err != "" {
			v.Reach("hook-failed")
		}
		if c.Incarnation > 1 {
			v.Reach("restarted-client")
		}
	}
	for _, r := range v.Records() {
		if r.Kind == trace.KindTaskEvent && r.Msg == structs.TaskHookFailed {
			v.Reach("hook-failed")
		}
	}
}

// incarnationOf is a client_start or client_crash record's incarnation.
func incarnationOf(r trace.Record) int {
	var d struct{ Incarnation int }
	if json.Unmarshal(r.Data, &d) != nil {
		return 0
	}
	return d.Incarnation
}

// restartReason is a Restarting record's restart_reason.
func restartReason(r trace.Record) string {
	var d struct {
		Details map[string]string `json:"details"`
	}
	_ = json.Unmarshal(r.Data, &d)
	return d.Details["restart_reason"]
}
