// Package defect names the defects the reference runner can be built
// with, one per mutant of impl/mutants (each breaks one SPEC rule the
// conformance suite must catch). The zero Set is the reference runner.
package defect

// Set is a set of defects.
type Set uint64

// The defects; impl/mutants documents each with the rule it breaks and
// the real bug it mirrors.
const (
	StatusRunningOverFailed Set = 1 << iota // AR-8
	SchedUTC                                // SCHED-4
	SchedNomadWindow                        // SCHED-5, SCHED-10
	SchedDSTNaive                           // SCHED-6
	PauseCountsRestarts                     // PAUSE-6
	PauseKillingEvent                       // PAUSE-5
	TelemCountsSkipped                      // TELEM-3
	TelemWallclock                          // TELEM-4
	RestoreDoubleStart                      // STATE-4
	KillOrder                               // AR-9
	EventCap11                              // DATA-6
	UpdateOlderWins                         // AR-10
	RestartRecoverableLost                  // AR-7
	KillRuleMainsOnly                       // AR-9 (kill rules)
	LifecycleMainEarly                      // AR-9 (start order)
	EventDisplayRaw                         // DATA-8
	RestoreForgetsAck                       // STATE-3
	SyncRetryAppended                       // SYNC-5 (node client)
	TelemClassEmpty                         // TELEM-2 (node client)
	TelemIgnoresSwitch                      // TELEM-5
	SchedNoNotice                           // SCHED-9
	PauseForgetsOverride                    // PAUSE-10
	SignalPausedOK                          // PAUSE-11
	RestartNoJitter                         // AR-7
	SyncLossyRetry                          // SYNC-3, SYNC-5 (node client)
	PauseGetUnknownOK                       // PAUSE-2
	SyncNoPriority                          // SYNC-5.2 (node client)
	SyncLazyStatus                          // SYNC-2, SYNC-5.1 (node client)
	SyncOldestWins                          // SYNC-1, SYNC-5 (node client)
	SyncBlockingProducer                    // SYNC-5.5 (node client)
	SyncEarlySend                           // SYNC-3 (node client)
	HookresRMW                              // HOOKRES-2, HOOKRES-4
	HookresLateHandoff                      // HOOKRES-1, HOOKRES-4
)

// Has reports whether s includes d.
func (s Set) Has(d Set) bool { return s&d != 0 }
