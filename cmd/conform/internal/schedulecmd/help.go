package schedulecmd

import (
	"fmt"
	"io"
)

// Summary is the one-line description listed by `conform help`.
const Summary = "when will my task run? evaluate a task schedule's windows"

// helpText documents every flag (a test checks that), the output and the
// exit codes. %d is MaxNext.
const helpText = `Usage:
  conform schedule --start START --end END [--timezone ZONE] [--at TIME]
                   [--profile ent|ce] [--next N] [--json]

Evaluate a task schedule (SPEC section 3): may a task with this schedule run
at a given instant, when does the current window close, when does the next
one open? Windows follow the reference rules: overnight windows, several
starts a day and daylight-saving days included (SCHED-5, SCHED-6).

Flags:
  --start START    cron start, exactly 6 fields separated by single spaces:
                   "minute hour day-of-month month day-of-week year",
                   e.g. "0 9 * * MON-FRI *" or "30 21 * * * *". Required.
  --end END        cron end, exactly 2 fields "minute hour", e.g. "30 17".
                   A window closes at the first end strictly after its
                   start, so "15 3" after a 21:30 start closes next morning.
                   Required.
  --timezone ZONE  IANA zone the fields are read in, e.g. America/New_York,
                   Europe/Berlin, UTC, EST5EDT (case-sensitive). Empty or
                   "Local" means this machine's zone (the TZ variable).
                   Default: empty.
  --at TIME        the instant to evaluate, RFC 3339 with Z or an offset:
                   2024-03-10T07:30:00Z or 2024-03-10T03:30:00-04:00
                   (fractional seconds allowed). Default: now.
  --profile P      client profile: "ent" evaluates schedules; "ce" rejects
                   any schedule ("task schedules requires Nomad
                   Enterprise"), as a CE server does. Default: ent.
  --next N         also list N windows, 0 to %d: the window holding --at
                   (when inside), then each following one. Default: no
                   list.
  --json           print exactly one JSON object instead of text.
  -h, --help       print this help.

Output:
  Text: the verdict (inside or outside a window), then --at, the current
  window (when inside) and the next window, each in the zone's local time
  with its offset and in UTC; with --next, a table of the windows.

  JSON: one object on one line; instants are UTC RFC 3339 with a trailing Z
  and absent values are null:
    {"inside":bool,"window_start":T,"window_end":T,"next_start":T,
     "next_end":T,"windows":[{"start":T,"end":T},...]}
  window_start/window_end: the merged window containing --at (null when
  outside; window_end is null if the window never closes).
  next_start/next_end: the next window to open (null if none; when inside,
  the first one starting at or after window_end).
  windows: only with --next; up to N merged windows, the first being the
  one holding --at when inside, each later one opening at or after the
  previous one's end; "end" is null for a window that never closes.

Exit codes:
  0  success, inside or outside (read the output to tell them apart)
  1  any other failure (e.g. the output could not be written)
  2  bad usage or invalid input: an unknown flag, a missing --start or
     --end, a bad --profile, --at or --next, or a schedule rejected by
     validation (SCHED-2: field counts, "/" or ",") or evaluation
     (SCHED-8: cron syntax, unknown time zone). The reason is on stderr.

Examples:
  # Is the weekday office-hours task running now, New York time?
  conform schedule --start "0 9 * * MON-FRI *" --end "30 17" \
      --timezone America/New_York

  # An overnight window, asked on the 2024 spring-forward morning
  conform schedule --start "30 21 * * * *" --end "15 3" \
      --timezone America/New_York --at 2024-03-10T03:30:00-04:00

  # The next 5 windows as JSON, for a script
  conform schedule --start "0 2 * * SUN *" --end "0 4" \
      --timezone Europe/Berlin --next 5 --json

  # What a CE cluster says about a scheduled task (exit code 2)
  conform schedule --start "0 9 * * * *" --end "0 17" --profile ce
`

// writeHelp prints the command's help.
func writeHelp(w io.Writer) {
	fmt.Fprintf(w, helpText, MaxNext)
}
