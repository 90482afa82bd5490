package properties

import (
	"slices"

	"github.com/allocsim/allocsim/properties/internal/alloc"
	"github.com/allocsim/allocsim/properties/internal/concurrent"
	"github.com/allocsim/allocsim/properties/internal/hookresources"
	"github.com/allocsim/allocsim/properties/internal/pausing"
	"github.com/allocsim/allocsim/properties/internal/prop"
	"github.com/allocsim/allocsim/properties/internal/restore"
	"github.com/allocsim/allocsim/properties/internal/sched"
	"github.com/allocsim/allocsim/properties/internal/syncing"
	"github.com/allocsim/allocsim/properties/internal/telem"
)

// all returns every property of the suite, in suite order (by SPEC
// section: telemetry, schedule, pause, alloc runner, hook resources,
// state, sync, then the real-time concurrency check).
func all() []prop.Property {
	return slices.Concat(
		telem.Properties(),
		sched.Properties(),
		pausing.Properties(),
		alloc.Properties(),
		hookresources.Properties(),
		restore.Properties(),
		syncing.Properties(),
		syncing.Timing(),
		concurrent.Properties(),
	)
}

// Info describes one property of the suite.
type Info struct {
	// ID is the property ("SCHED-5/inside-windows-only"), Specs the SPEC
	// IDs it enforces, Doc what it checks.
	ID    string
	Specs []string
	Doc   string
	// ClientCommunication is set when the property belongs to the
	// client-communication profile too.
	ClientCommunication bool
}

// List describes every property, in suite order.
func List() []Info {
	var out []Info
	for _, p := range all() {
		out = append(out, Info{ID: p.ID, Specs: p.Specs, Doc: p.Doc, ClientCommunication: p.In(prop.ClientCommunication)})
	}
	return out
}
