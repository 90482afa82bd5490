// Package interfaces holds the contract between a runner and everything
// around it: the AllocRunner interface of SPEC §7 (AR-1), its Config
// (AR-2), the Factory type (AR-3) and the alloc and task hook interfaces
// (AR-4, AR-5). The simulator and the conformance suite know runners only
// through this package.
package interfaces
