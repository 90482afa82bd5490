package alloc

import (
	"time"

	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// Properties lists the package's properties in suite order.
func Properties() []prop.Property {
	return []prop.Property{clientStatus, restartPolicy, killOrder, killRules, lifecycleStartOrder, updateQueue, eventsNewest10, eventMessagesExact}
}

// clientStatus: AR-8 at every settled instant. Crashes are left out: a
// failed restore sets the status by SetClientStatus (STATE-3), which
// overrides AR-8 by design.
var clientStatus = prop.Property{
	ID:       "AR-8/client-status-every-instant",
	Profiles: prop.Full | prop.ClientCommunication,
	Specs:    []string{"AR-8", "DATA-6"},
	Doc:      "every alloc's ClientStatus and ClientDescription follow from its task states at every settled instant",
	Faults: []faults.Class{faults.DriverStartDelay, faults.DriverStartFailure, faults.DriverExit,
		faults.DriverStopHang, faults.CSIMountFailure, faults.CSIMountLatency, faults.RPCLatency},
	Draw: func(d *prop.Drawer, env prop.Env) scenario.Scenario {
		return scenario.DrawWith(d, scenario.Options{MinDuration: 2 * time.Minute, MaxDuration: 10 * time.Minute, MaxCalls: 3, Exclude: env.Exclude()})
	},
	New: func(scenario.Scenario) prop.Checker {
		return prop.Checks{OnSettled: func(v *prop.View) {
			for _, a := range v.Allocs() {
				want, desc := status.ClientStatus(a.TaskStates)
				if want == "" {
					continue
				}
				if a.ClientStatus != want {
					v.Violatef(a.ID, "", "ClientStatus", a.ClientStatus, want+" ("+desc+")")
					return
				}
				if a.ClientDescription != desc {
					v.Violatef(a.ID, "", "ClientDescription", a.ClientDescription, desc)
					return
				}
			}
		}}
	},
}
