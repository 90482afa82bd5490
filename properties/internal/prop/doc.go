// Package prop is the conformance suite's property framework: what a
// property is (a scenario drawer and a checker), how one check runs (a
// simulated world in a synctest bubble, checked at every settled
// instant, then a fault-free liveness phase, then a final check), how a
// property is explored over seeds, how a failing scenario shrinks, and
// how a failure prints (STYLE.md rule 9).
//
// A property is checked like this:
//
//  1. for check i of N, the seed is Seeds(base, ID)[i]; the scenario is
//     the property's Draw over a Drawer on that seed's "scenario" stream,
//     with Seed = the seed, so -allocsim.seed=<seed> replays it exactly;
//  2. Execute runs it: a sim.World under sim.Test (synctest plus the
//     stall watchdog), Checker.Settled at every settled instant with the
//     trace records of that instant, the first violation stopping the run;
//     if the property has a liveness phase, World.Heal then Liveness more
//     virtual time, still checked; then Checker.Final; then World.Close,
//     whose harness violations (DET-1 stamps, leaked goroutines) are
//     violations too. A panic of the checker or of the runner on the
//     world's goroutine is recovered and reported, and the world is
//     always closed, so a failure never wedges the bubble;
//  3. the first failing check is shrunk: the Drawer's recorded choices
//     are lowered and cut, a bounded number of runs, keeping each change
//     that still fails the property (deterministic: the same seed always
//     gives the same shrunk scenario);
//  4. the Failure names the property's SPEC ID, the violation as
//     "<alloc>/<task> @<virtual time (task's local time)>: <what> = <got>,
//     want <want>", the seed, the shrunk scenario in one paragraph, the
//     last trace records before the violation and the replay command.
//
// Properties never read the runner's internals: they see the trace, what
// the runners pushed (World.ClientAllocs), the server, the metrics sink
// and the client's API, and compare them with model/.
package prop
