package syncing

import "github.com/allocsim/allocsim/properties/internal/prop"

// Timing lists the sync loop's timing and content properties (SYNC-5.1,
// 5.2 and 5.5, SYNC-3's servers-contacted condition, SYNC-2's None
// entries dropped), in suite order; the suite lists them after
// Properties.
func Timing() []prop.Property {
	return []prop.Property{urgentFirstTick, urgentRacedClassification, spacedWithoutUrgent, producersNeverBlock, nothingBeforeContact, acknowledgedNotResent}
}
