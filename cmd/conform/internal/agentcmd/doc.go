// Package agentcmd is `conform agent -dev`: one process running the
// in-process simulated server, the reference client and runner on the
// real clock, the mock_driver and raw_exec drivers, and the
// Nomad-compatible HTTP API on a loopback address (SPEC §5; the wiring is
// package devagent).
//
// Steps:
//
//  1. parse flags: -dev is required (there is no other mode); -profile,
//     -local-zone and -log-level are checked (usage errors, exit 2);
//  2. start the agent; a failure (the port is taken, the data dir cannot
//     be made) exits 1;
//  3. print where it listens and what it runs, then serve until SIGINT or
//     SIGTERM (tests inject a stop channel instead); a SIGHUP prints
//     `==> Caught signal: hangup` and the agent carries on, as Nomad's
//     does, and is caught even under nohup, so that tasks never inherit
//     an ignored SIGHUP (Config.watchHangups);
//  4. shut down: stop serving, stop every alloc (bounded), shut the client
//     down, close the drivers and the state DB, remove a temporary data
//     dir. A second signal during shutdown kills the process at once
//     (the signal's default action), leaving tasks behind.
//
// This is a production adapter: it reads the real clock (through
// devagent), the PATH variable (for raw_exec tasks) and the machine's
// local zone (the default -local-zone, SCHED-4), all injectable through
// [Config].
package agentcmd
