package pausing

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/properties/internal/sched"
	"github.com/allocsim/allocsim/properties/internal/sched/oracle"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// signals: PAUSE-11 on a paused or live scheduled task and a live one.
var signals = prop.Property{
	ID:    "PAUSE-11/signals",
	Specs: []string{"PAUSE-11", "API-2"},
	Doc:   "Signal on a paused task is `Task not running`; on a live task it appends Signaling with Details signal=<sig> and DisplayMessage `Task being sent a signal`",
	Draw: func(d *prop.Drawer, _ prop.Env) scenario.Scenario {
		s := windowed(d, d.IntRange("run min", 4, 12), 0)
		s.Side = true
		mins := int(s.Duration / time.Minute)
		for _, task := range []string{work, side} {
			s.Calls = append(s.Calls, scenario.Call{At: scenario.Duration(time.Duration(d.IntRange("signal at min", 0, mins-1))*time.Minute + 30*time.Second),
				Op: scenario.OpSignal, Alloc: sched.AllocName, Task: task, Signal: prop.Pick(d, "signal", []string{"SIGHUP", "SIGUSR1"})})
		}
		if d.Bool("signal all") { // API-6: an empty Task signals every task
			s.Calls = append(s.Calls, scenario.Call{At: scenario.Duration(time.Duration(d.IntRange("signal all at min", 0, mins-1))*time.Minute + 30*time.Second),
				Op: scenario.OpSignal, Alloc: sched.AllocName, Signal: prop.Pick(d, "signal all", []string{"SIGHUP", "SIGUSR1"})})
		}
		// One run in three signals the scheduled task 1 s into the pause
		// stop at its window's end (its stop takes 3 or 4 s: the handle
		// is still live); one in three stops the job and signals both
		// tasks once they are dead.
		if w, ok := firstWindow(s); ok && w.End.Before(s.Start.Add(s.Duration)) && d.IntRange("signal while stopping", 0, 2) == 0 {
			s.Config["kill_after"] = d.Duration("stop takes", 3*time.Second, 4*time.Second, time.Second).String()
			s.Calls[0].At = scenario.Duration(w.End.Add(time.Second).Sub(s.Start))
		}
		if mins >= 2 && d.IntRange("signal dead", 0, 2) == 0 {
			stop := time.Duration(d.IntRange("stop at min", 0, mins-2))*time.Minute + 10*time.Second
			s.Calls = slices.DeleteFunc(s.Calls, func(c scenario.Call) bool { return c.At.D() >= stop })
			s.Calls = append(s.Calls, scenario.Call{At: scenario.Duration(stop), Op: scenario.OpStopJob, Job: "sj"})
			for i, task := range []string{work, side} {
				s.Calls = append(s.Calls, scenario.Call{At: scenario.Duration(stop + time.Duration(30+i)*time.Second),
					Op: scenario.OpSignal, Alloc: sched.AllocName, Task: task, Signal: "SIGUSR1"})
			}
		}
		sortCalls(s.Calls)
		return s.Build()
	},
	Situations: signalSituations,
	New: func(sc scenario.Scenario) prop.Checker {
		o := oracle.New(sc, "sj", work)
		type pending struct {
			at        time.Time
			task, sig string
			alloc     string
		}
		var want []pending
		var h handle // the scheduled task's driver handle
		check := prop.Checks{OnSettled: func(v *prop.View) {
			for _, r := range v.New {
				h.see(r)
				switch {
				case r.Kind == trace.KindAPI && r.Op == string(scenario.OpSignal):
					_, e := oracle.APIResult(r)
					// A live handle: the unscheduled task, the scheduled
					// one while it should run or while its pause stop is
					// under way; none once dead (PAUSE-11).
					live := r.Task == side || o.Run(r.At) || r.Task == work && h.stopping
					if a := v.Alloc(r.Alloc); a != nil {
						if ts := a.TaskStates[r.Task]; ts != nil && ts.State == structs.TaskStateDead {
							live = false
						}
					}
					sig := ""
					for _, c := range sc.Calls {
						if c.Op == scenario.OpSignal && c.Task == r.Task && sc.Start.Add(c.At.D()).Equal(r.At) {
							sig = c.Signal
						}
					}
					if e == "" {
						if idx := replyIndex(r); idx != 0 {
							v.Violatef(r.Alloc, r.Task, "signal reply Index", idx, "0 (API-6: reply {\"Index\":0})")
							return
						}
					}
					if r.Task == "" {
						// API-6: every task, in name order; a task not
						// running is a joined failure, every other one gets
						// its Signaling.
						var lines []string
						for _, name := range []string{side, work} {
							if e != "" && strings.Contains("\n"+e+"\n", "\n"+notRunning(name)+"\n") {
								lines = append(lines, notRunning(name))
								continue
							}
							want = append(want, pending{r.At, name, sig, r.Alloc})
						}
						if wantErr := strings.Join(lines, "\n"); e != wantErr {
							v.Violatef(r.Alloc, "", "signal result for every task (empty Task)", fmt.Sprintf("%q", e),
								"each task's failure as `Failed to signal task: <name>, err: <err>`, in name order, joined (API-6)")
							return
						}
						continue
					}
					if !live && e != "Task not running" {
						v.Violatef(r.Alloc, r.Task, "signal result on a paused task", e, "Task not running")
						return
					}
					if live {
						if e != "" {
							v.Violatef(r.Alloc, r.Task, "signal result on a live task", e, "no error")
							return
						}
						want = append(want, pending{r.At, r.Task, sig, r.Alloc})
					}
				case r.Kind == trace.KindTaskEvent && r.Msg == structs.TaskSignaling:
					ev := oracle.EventOf(r)
					ok := false
					for i, w := range want {
						if w.task == r.Task && w.at.Equal(r.At) && ev.Details["signal"] == w.sig && ev.Display == structs.DisplaySignalingGeneric {
							want, ok = append(want[:i], want[i+1:]...), true
							break
						}
					}
					if !ok {
						v.Violatef(r.Alloc, r.Task, "Signaling event", ev.Details["signal"]+" "+ev.Display, "one per signal call on a live task, at the call, Details signal=<sig>")
						return
					}
				}
			}
			for _, w := range want {
				if v.Now().After(w.at) {
					v.Violate(prop.Violation{At: w.at, Alloc: w.alloc, Task: w.task, What: "Signaling event", Got: "none", Want: "signal=" + w.sig})
					return
				}
			}
		}}
		return sched.Both(check, newSignalReach(sc).checker())
	},
}

// notRunning is API-6's failure line of an every-task signal for a task
// that is not running.
func notRunning(task string) string {
	return fmt.Errorf(structs.FmtSignalTaskFailed, task, errors.New("Task not running")).Error()
}

// replyIndex is the Index of a signal call's GenericResponse, as the
// world traced it.
func replyIndex(r trace.Record) uint64 {
	var d struct {
		Index uint64 `json:"index"`
	}
	_ = json.Unmarshal(r.Data, &d)
	return d.Index
}
