// Package reference names the built-in runners under test as
// interfaces.Factory values, the form the simulator and the conformance
// suite take: Factory (impl/client's node client running
// impl/allocrunner's alloc runners, the complete runner of DESIGN.md) and
// Minimal (the same client running impl/minimal's runners, AR-3).
//
// A Factory names both halves: nothing in the contract means "the
// reference one" by being nil. An alloc runner written elsewhere is paired
// with the reference node client by WithAllocRunner:
//
//	func TestConformance(t *testing.T) {
//		properties.Run(t, reference.WithAllocRunner("myrunner", myrunner.New))
//	}
package reference
