// Package sim is the deterministic simulator: one event queue on a virtual
// clock, a fault-injecting world, a simulated server, crashes and restores,
// and traces (DESIGN.md, Determinism).
package sim
