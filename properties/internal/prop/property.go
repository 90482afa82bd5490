package prop

import (
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"

	"github.com/allocsim/allocsim/sim"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// Profile is a set of suite profiles a property belongs to.
type Profile uint8

// Profiles.
const (
	// Full is every property: a complete runner.
	Full Profile = 1 << iota
	// ClientCommunication is what a runner without tasks can show (the
	// minimal runner of AR-3): client-server traffic, no task behaviour.
	ClientCommunication
)

// Property is one checkable rule of the spec.
type Property struct {
	// ID is "<SPEC ID>/<name>", e.g. "SCHED-5/inside-windows-only": the
	// subtest path under Run and the key of reports.
	ID string
	// Specs are the SPEC IDs it enforces, ID's first.
	Specs []string
	// Doc says in one sentence what it checks.
	Doc string
	// Profiles are the profiles it belongs to; zero means Full only.
	Profiles Profile
	// Faults are the fault classes its scenarios may draw; the caller's
	// allowed classes narrow them (Env.Faults).
	Faults []faults.Class
	// Draw draws one scenario from d. The framework sets its Seed and
	// Name and drops faults the Env does not allow.
	Draw func(d *Drawer, env Env) scenario.Scenario
	// Hold is the world's hold set; zero means sim.DefaultHold.
	Hold sim.Hold
	// Unbatched, if set, reports whether a run of sc hands the client a
	// state DB without impl/state's extensions (sim.Config.UnbatchedStateDB).
	Unbatched func(sc scenario.Scenario) bool
	// Liveness, if positive, is how long the world runs on after the
	// scenario's end once every fault healed (World.Heal), still checked,
	// before Final.
	Liveness time.Duration
	// New returns the checker of one run of sc.
	New func(sc scenario.Scenario) Checker
	// Situations is the catalogue of the cases its rules distinguish
	// (View.Reach counts them); empty means none catalogued yet.
	Situations []Situation
	// Direct, if set, checks the runner itself instead of drawing a
	// scenario for the simulator (Draw, New and the world's fields are
	// then unused): one check of seed, outside any bubble, in real time.
	// Its Outcome holds the violations and the situations reached; there
	// is no trace, no rerun and no shrinking. Several checks run at once
	// (exploreDirect), each on a goroutine of its own: Direct must not
	// share state between calls nor stop t (t.Fatal).
	Direct func(t *testing.T, f interfaces.Factory, seed uint64) Outcome
}

// Spec is the SPEC ID part of ID ("SCHED-5").
func (p Property) Spec() string {
	spec, _, _ := strings.Cut(p.ID, "/")
	return spec
}

// Area is the SPEC area of ID ("SCHED").
func (p Property) Area() string {
	spec := p.Spec()
	if i := strings.LastIndexByte(spec, '-'); i > 0 {
		return spec[:i]
	}
	return spec
}

// In reports whether p belongs to profile pr.
func (p Property) In(pr Profile) bool {
	ps := p.Profiles
	if ps == 0 {
		ps = Full
	}
	return ps&pr != 0
}

// Env is what a property's Draw is told about the run.
type Env struct {
	// Faults are the fault classes the run may draw: the property's,
	// narrowed by the caller's.
	Faults []faults.Class
}

// Allows reports whether the run may draw class c.
func (e Env) Allows(c faults.Class) bool {
	for _, f := range e.Faults {
		if f == c {
			return true
		}
	}
	return false
}

// Exclude lists every class the run may not draw (for
// scenario.Options.Exclude).
func (e Env) Exclude() []faults.Class {
	var out []faults.Class
	for _, c := range faults.Classes() {
		if !e.Allows(c) {
			out = append(out, c)
		}
	}
	return out
}

// Checker checks one run.
type Checker interface {
	// Settled is called at every settled instant with that instant's
	// view; a violation it reports ends the run.
	Settled(v *View)
	// Final is called once after the run and its liveness phase, with
	// the client still up (unless it crashed for good).
	Final(v *View)
}

// Checks is a Checker from two functions; either may be nil.
type Checks struct {
	OnSettled func(v *View)
	OnFinal   func(v *View)
}

// Settled calls OnSettled.
func (c Checks) Settled(v *View) {
	if c.OnSettled != nil {
		c.OnSettled(v)
	}
}

// Final calls OnFinal.
func (c Checks) Final(v *View) {
	if c.OnFinal != nil {
		c.OnFinal(v)
	}
}
