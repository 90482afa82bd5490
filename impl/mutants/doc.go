// Package mutants holds deliberately wrong runners, each the reference
// runner with one known defect, that the conformance suite must catch.
//
// A mutant is an interfaces.Factory named after it: the reference node
// client built by client.WithDefects running the reference alloc runner
// built by allocrunner.WithDefects, both with one defect of
// impl/internal/defect (each half acts only on its own defects; and,
// for schedule mutants, an evaluator replacing model/schedule's in the
// pause gate). Everything but the defect is the reference's, so a
// conformance property that fails on a mutant fails because of the one
// rule it breaks. The suite proves itself by running on every mutant of
// All: each must fail at least one property, while the reference passes
// them all.
//
// The table (Breaks: the SPEC rules broken; Mirrors: the real bug):
//
//	name                        breaks              branch
//	status-running-over-failed  AR-8                allocrunner clientState
//	sched-utc                   SCHED-4             evalUTC (pause gate seam)
//	sched-nomad-window          SCHED-5, SCHED-10   evalNomadWindow
//	sched-dst-naive             SCHED-6             evalDSTNaive
//	pause-counts-restarts       PAUSE-6             taskrunner endRun
//	pause-killing-event         PAUSE-5             taskrunner pauseStop
//	telem-counts-skipped        TELEM-3             taskrunner prestart
//	telem-wallclock             TELEM-4             allocrunner wallclockStats
//	restore-double-start        STATE-4             taskrunner attempt
//	kill-order                  AR-9                allocrunner killTasks
//	event-cap-11                DATA-6              taskrunner appendTo
//	update-older-wins           AR-10               allocrunner updateQueue.push
//	restart-recoverable-lost    AR-7                taskrunner endRun
//	kill-rule-mains-only        AR-9                allocrunner applyKillRules
//	lifecycle-main-early        AR-9                allocrunner updateGates
//	event-display-raw           DATA-8              taskrunner appendTo
//	restore-forgets-ack         STATE-3             allocrunner Run
//	sync-retry-appended         SYNC-5              client syncTick
//	telem-class-empty           TELEM-2             client newClient
//	telem-ignores-switch        TELEM-5             allocrunner newMutatedAllocRunner
//	sched-no-notice             SCHED-9             taskrunner pauseGate.stepLocked
//	pause-forgets-override      PAUSE-10            taskrunner pauseGate.restore
//	signal-paused-ok            PAUSE-11            taskrunner Signal
//	restart-no-jitter           AR-7                taskrunner runLoop
//	sync-lossy-retry            SYNC-3, SYNC-5      client syncTick
//	pause-get-unknown-ok        PAUSE-2             allocrunner GetTaskPauseState
//	sync-no-priority            SYNC-3, SYNC-5      client syncTick
//	sync-lazy-status            SYNC-2, SYNC-5      client syncTick (classification)
//	sync-oldest-wins            SYNC-1, SYNC-5      client pendingUpdates
//	sync-blocking-producer      SYNC-1, SYNC-5      client pendingUpdates
//	sync-early-send             SYNC-3              client syncTick
//	hookres-rmw                 HOOKRES-2, -4       allocrunner csiHook.Prerun
//	hookres-late-handoff        HOOKRES-1, -4       allocrunner Run, taskrunner volumesHook
//
// sched-nomad-window follows SPEC SCHED-10's description of Nomad
// 1.8–1.10 (see evalNomadWindow), not Nomad's source.
package mutants
