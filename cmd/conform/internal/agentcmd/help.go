package agentcmd

import (
	"fmt"
	"io"

	"github.com/allocsim/allocsim/cmd/conform/internal/devagent"
)

const helpText = `Usage:
  conform agent -dev [options]

Run a dev agent in the foreground: the simulated server (in memory), the
reference client and alloc runner on the real clock, and the
Nomad-compatible HTTP API (SPEC section 5), so that conform job run,
conform alloc pause and the official Nomad Go client can talk to it.
Task drivers: mock_driver (nothing runs; tasks are plans, e.g.
config { run_for = "1h" }) and raw_exec (local processes, no isolation;
config { command = "sleep" args = ["600"] }; a task inherits the agent's
environment but Nomad's default env.denylist, as on a Nomad client). CSI
volumes are not available. Parameterized batch jobs register without
running; each dispatch (nomad job dispatch, PUT /v1/job/<id>/dispatch)
runs a child job whose tasks see its meta as NOMAD_META_<key>.

Everything lives as long as the process: on exit every job is stopped and
its tasks killed (bounded by %v), and a temporary data dir is removed.

Options:
  -dev             dev mode; required (there is no other mode).
  -http-addr=A     host:port of the HTTP API (default %s). Port 0
                   picks a free port; the banner shows which. Only
                   loopback unless you name another address.
  -data-dir=DIR    where the state DB (DIR/client/state.db) and the alloc
                   dirs (DIR/alloc/<alloc-id>) go; kept on exit. Default:
                   a temporary dir, removed on exit.
  -profile=P       ent (default) runs task schedules; ce rejects any job
                   with a schedule ("task schedules requires Nomad
                   Enterprise", SCOPE-2).
  -local-zone=Z    IANA zone of schedules whose timezone is empty or
                   "Local" (SCHED-4). Default: this machine's zone (TZ).
  -log-level=L     debug, info (default), warn or error; logs go to stderr.
  -h, --help       print this help.

Output:
  A banner on stdout with the HTTP address, the node ID, the profile, the
  local zone, the drivers and the data dir; on exit, the shutdown steps.

Stopping:
  Ctrl-C (SIGINT) or SIGTERM stops the agent cleanly. A second one quits
  at once, leaving tasks running. SIGHUP prints "==> Caught signal:
  hangup" and the agent carries on (there is no configuration to
  reload); started under nohup, tasks still get SIGHUP at its default.

Exit codes:
  0  stopped cleanly
  1  the agent could not start (e.g. the address is in use) or did not
     stop cleanly (e.g. an alloc still running after the stop timeout)
  2  bad usage: -dev missing, an unknown flag, a bad -profile,
     -local-zone or -log-level

Examples:
  # The usual dev agent on 127.0.0.1:4646
  conform agent -dev

  # A CE agent on another port, schedules read in Berlin time
  conform agent -dev -profile=ce -http-addr=127.0.0.1:5646 -local-zone=Europe/Berlin
`

func writeHelp(w io.Writer) {
	fmt.Fprintf(w, helpText, devagent.DefaultStopTimeout, devagent.DefaultHTTPAddr)
}
