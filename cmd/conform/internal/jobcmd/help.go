package jobcmd

import (
	"fmt"
	"io"

	"github.com/allocsim/allocsim/cmd/conform/internal/apiclient"
)

const runHelp = `Usage:
  conform job run [options] FILE

Submit the jobspec FILE to an agent (PUT /v1/jobs, SPEC API-4) with the
official Go client, print the evaluation ID, then list the allocations the
job placed with their status at that moment. FILE is HCL (*.hcl, *.nomad)
or the API's JSON (*.json, or any file starting with "{"); see
impl/jobspec for the subset understood. Constructs outside it are accepted
with a warning on stderr.

Options (before FILE):
  -address=ADDR    the agent's HTTP address. Default: $NOMAD_ADDR, else
                   %s.
  -detach          print the evaluation and return; do not wait for the
                   allocations.
  -timeout=D       how long to wait for the allocations to be placed, a Go
                   duration (default %v). Fewer than asked for after it:
                   the ones found are listed and a note goes to stderr.
  -verbose         show full IDs.
  -h, --help       print this help.

Output:
  Job "<id>" registered: evaluation <eval-id> at index <n>
  Allocations placed:
  ID        Node ID   Job ID  Task Group  Desired  Status
  ...

Exit codes:
  0  the job was registered
  1  the file could not be read, the agent could not be reached, or it
     rejected the job (its reason, e.g. "task schedules requires Nomad
     Enterprise" from a ce agent, is on stderr)
  2  bad usage or an invalid jobspec (every problem on stderr, with its
     position)

Examples:
  # Against a dev agent on this machine (conform agent -dev)
  conform job run fixtures/jobs/scheduled-batch.hcl

  # Against another agent, without waiting
  NOMAD_ADDR=http://10.0.0.5:4646 conform job run -detach job.json
`

func writeRunHelp(w io.Writer) {
	fmt.Fprintf(w, runHelp, apiclient.DefaultAddress, DefaultTimeout)
}

const stopHelp = `Usage:
  conform job stop [options] JOB

Stop the job whose ID is JOB on an agent (DELETE /v1/job/<id>) with the
official Go client, as nomad job stop does: its allocations are told to
stop, and the job stays readable until purged. JOB is the exact ID (no
prefix lookup). The command returns once the agent accepted the stop; it
does not wait for the allocations to stop.

Options (before JOB):
  -address=ADDR    the agent's HTTP address. Default: $NOMAD_ADDR, else
                   %s.
  -purge           also remove the job from the agent's state
                   (DELETE /v1/job/<id>?purge=true).
  -h, --help       print this help.

Output:
  Job "<id>" stopped: evaluation <eval-id>
  Job "<id>" stopped and purged: evaluation <eval-id>     (with -purge)

Exit codes:
  0  the agent accepted the stop
  1  the agent could not be reached or refused (its reason is on stderr)
  2  bad usage: no job ID, more than one, an empty one, an unknown flag

Examples:
  # Stop the job of the README's walkthrough on a dev agent
  conform job stop sleeper

  # Stop and forget it, on another agent
  conform job stop -purge -address http://10.0.0.5:4646 sleeper
`

func writeStopHelp(w io.Writer) {
	fmt.Fprintf(w, stopHelp, apiclient.DefaultAddress)
}
