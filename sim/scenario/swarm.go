package scenario

import (
	"slices"

	"github.com/allocsim/allocsim/sim/seeds"
)

// Swarm generation (Groce et al., "Swarm testing"): each generated
// scenario first turns a random subset of features on, and draws only
// from those, so that rare combinations are reached by some seeds (every
// task a prestart one, every call an eviction) instead of being diluted
// in every seed. The set is printed with the scenario (Features); the
// fault classes are swarmed the same way by faults.Draw.

// Generator features: each names a choice the generator only makes when
// the feature is on.
const (
	FeatureLifecycle   = "lifecycle"     // prestart, sidecar and poststop tasks
	FeatureLeader      = "leader"        // leader tasks
	FeatureCSI         = "csi"           // CSI volumes and mounts
	FeatureSchedules   = "schedules"     // task schedules
	FeatureStartErrors = "start-errors"  // configured driver start failures
	FeatureStartBlocks = "start-blocks"  // driver starts that take time
	FeatureTraps       = "traps"         // tasks that ignore SIGHUP
	FeatureExits       = "exits"         // main tasks that exit
	FeatureDelayMode   = "delay-mode"    // restart policies in delay mode
	FeatureBatch       = "batch"         // batch jobs
	FeatureMultiGroup  = "multi-group"   // jobs of two groups
	FeatureOverCap     = "kill-over-cap" // kill timeouts over max_kill_timeout, and unset ones
)

// Features lists every generator feature, in the order they are drawn.
func Features() []string {
	return []string{FeatureLifecycle, FeatureLeader, FeatureCSI, FeatureSchedules, FeatureStartErrors, FeatureStartBlocks,
		FeatureTraps, FeatureExits, FeatureDelayMode, FeatureBatch, FeatureMultiGroup, FeatureOverCap}
}

// drawFeatures turns each feature on with probability 1/2 and, apart,
// each API call operation (a call draws only from the ones on; none on:
// no calls).
func drawFeatures(d seeds.Drawer) (features []string, ops []Op) {
	for _, f := range Features() {
		if d.Bool("feature " + f) {
			features = append(features, f)
		}
	}
	for _, op := range swarmOps() {
		if d.Bool("feature op " + string(op)) {
			ops = append(ops, op)
		}
	}
	return features, ops
}

// on reports whether the scenario's generator had feature f on.
func (g generator) on(f string) bool { return slices.Contains(g.s.Features, f) }
