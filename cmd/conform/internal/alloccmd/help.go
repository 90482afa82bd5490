package alloccmd

import (
	"fmt"
	"io"

	"github.com/allocsim/allocsim/cmd/conform/internal/apiclient"
)

const pauseHelp = `Usage:
  conform alloc pause [options] <allocation> [<task>]

Pause a running task (SPEC API-8): force a task of an allocation to pause
or to run whatever its schedule says, hand it back to its schedule, or read
its pause state. The task must have a schedule (SPEC section 3); the agent
must run the ent profile.

<allocation> is an alloc ID or a prefix of at least two characters; a prefix
of odd hex length loses its last character. <task> names a task of the
alloc's group; it may be left out when the group has only one task.

Options (before the arguments):
  -state=STATE     the pause state to set (default pause):
                     pause      stop the task and keep it stopped (force_pause)
                     run        run the task, outside its window too (force_run)
                     scheduled  drop the override: follow the schedule again
  -status          print the task's stored pause state instead, as
                   Pause state: "<state>", one of "" (following the schedule,
                   inside its window), "scheduled_pause" (outside it),
                   "force_pause" or "force_run".
  -task=NAME       the task; wins over the positional <task>.
  -verbose         show full IDs in the table printed when a prefix matches
                   several allocations.
  -address=ADDR    the agent's HTTP address. Default: $NOMAD_ADDR, else
                   %s.
  -h, --help       print this help.

Setting a state prints nothing: the task stops or starts shortly after, as
the task events Pausing and Running (then Started) show in
GET /v1/allocation/<id>.

Exit codes:
  0  success (the state was set, or printed with -status)
  1  failure: wrong number of arguments, a bad -state, an ID shorter than
     two characters, no or several matching allocations, an unknown task,
     or an error from the agent. The reason is on stderr.
  2  bad usage: an unknown flag.

Examples:
  # Pause task "sleeper" of alloc 8ab1c2d3-..., whatever its schedule says
  conform alloc pause 8ab1 sleeper

  # Is it paused?
  conform alloc pause -status 8ab1 sleeper

  # Run it now, outside its window
  conform alloc pause -state=run 8ab1 sleeper

  # Back to the schedule
  conform alloc pause -state=scheduled -task=sleeper 8ab1
`

func writePauseHelp(w io.Writer) {
	fmt.Fprintf(w, pauseHelp, apiclient.DefaultAddress)
}
