package schedulecmd

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/cli"
	"github.com/allocsim/allocsim/model/schedule"
)

// Summary is the one-line description listed by `conform help`.
const Summary = "when will my task run? evaluate a task schedule's windows"

// Config holds the production adapters the command reads. The zero Config
// uses time.Now and time.Local.
type Config struct {
	// Now is the clock behind the default --at; nil means time.Now.
	Now func() time.Time
	// Local is the zone used when --timezone is empty or "Local" (SCHED-4);
	// nil means time.Local.
	Local *time.Location
}

// MaxNext caps --next: listing more windows than this is refused as invalid
// input, so a typo cannot make the command walk the calendar to 2099.
const MaxNext = 1000

// options are the parsed flags.
type options struct {
	start, end, timezone string
	at                   string
	profile              string
	next                 int
	listNext             bool // --next was given (even 0)
	json                 bool
}

func (o *options) register(fs *flag.FlagSet) {
	fs.StringVar(&o.start, "start", "", "cron start (6 fields)")
	fs.StringVar(&o.end, "end", "", "cron end (2 fields)")
	fs.StringVar(&o.timezone, "timezone", "", "IANA time zone; empty or Local = this machine's zone")
	fs.StringVar(&o.at, "at", "", "instant to evaluate, RFC 3339 (default now)")
	fs.StringVar(&o.profile, "profile", string(schedule.ProfileEnt), "client profile: ent or ce")
	fs.IntVar(&o.next, "next", 0, "list the next N windows")
	fs.BoolVar(&o.json, "json", false, "print one JSON object")
}

// newFlagSet returns the command's flags bound to o.
func newFlagSet(name string, o *options) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	o.register(fs)
	return fs
}

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

// Run runs `conform schedule` with c's clock and local zone. Bad usage and
// invalid schedules come back as cli usage errors (exit code 2).
func (c Config) Run(name string, args []string, stdout, stderr io.Writer) error {
	var o options
	fs := newFlagSet(name, &o)
	helped, err := cli.ParseFlags(fs, args, stdout, writeHelp)
	if err != nil || helped {
		return err
	}
	if err := o.check(fs); err != nil {
		return err
	}
	at, err := c.at(o.at)
	if err != nil {
		return err
	}
	rep, err := c.evaluate(o, at)
	if err != nil {
		return err
	}
	if o.json {
		err = writeJSON(stdout, rep)
	} else {
		err = writeHuman(stdout, rep)
	}
	if err != nil {
		return fmt.Errorf("writing the schedule report: %w", err)
	}
	return nil
}

// check validates the flags that need no model call.
func (o *options) check(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q: conform schedule takes only flags", fs.Arg(0))
	}
	var missing []string
	for _, f := range []string{"start", "end"} {
		if !cli.IsSet(fs, f) {
			missing = append(missing, "--"+f)
		}
	}
	if len(missing) > 0 {
		return cli.Usagef("missing required flag(s): %s", strings.Join(missing, ", "))
	}
	switch schedule.Profile(o.profile) {
	case schedule.ProfileEnt, schedule.ProfileCE:
	default:
		return cli.Usagef("invalid --profile %q: want ent or ce", o.profile)
	}
	if o.next < 0 || o.next > MaxNext {
		return cli.Usagef("invalid --next %d: want 0 to %d (the cap on listed windows)", o.next, MaxNext)
	}
	o.listNext = cli.IsSet(fs, "next")
	return nil
}

// at parses --at, or reads the clock when it is empty.
func (c Config) at(s string) (time.Time, error) {
	if s == "" {
		if c.Now == nil {
			return time.Now(), nil
		}
		return c.Now(), nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, cli.Usage(fmt.Errorf("invalid --at %q: want RFC 3339 such as 2024-03-10T07:30:00Z or 2024-03-10T03:30:00-04:00: %w", s, err))
	}
	return t, nil
}

func (c Config) local() *time.Location {
	if c.Local == nil {
		return time.Local
	}
	return c.Local
}

// report is everything the writers render.
type report struct {
	start, end string
	zoneName   string         // as displayed
	zone       *time.Location // the schedule's zone (SCHED-4)
	at         time.Time
	result     schedule.Result
	listNext   bool // --next was given
	want       int  // windows asked for
	windows    []schedule.Window
}

// evaluate runs SCHED-2 (Validate with the profile) then SCHED-8
// (Evaluate, NextWindows). Their errors are invalid input, printed verbatim.
func (c Config) evaluate(o options, at time.Time) (report, error) {
	s := &schedule.Schedule{Cron: &schedule.Cron{Start: o.start, End: o.end, Timezone: o.timezone}}
	if err := schedule.Validate(s, schedule.Profile(o.profile)); err != nil {
		return report{}, cli.Usage(err)
	}
	local := c.local()
	res, err := schedule.Evaluate(s, at, local)
	if err != nil {
		return report{}, cli.Usage(err)
	}
	rep := report{
		start: o.start, end: o.end,
		at: at, result: res,
		listNext: o.listNext, want: o.next,
	}
	if o.listNext && o.next > 0 {
		if rep.windows, err = schedule.NextWindows(s, at, local, o.next); err != nil {
			return report{}, cli.Usage(err)
		}
	}
	if rep.zone, rep.zoneName, err = zoneOf(o.timezone, local); err != nil {
		// Evaluate accepted this zone, so this is not the user's input.
		return report{}, fmt.Errorf("loading time zone %q: %w", o.timezone, err)
	}
	return rep, nil
}

// localZoneName is the Timezone value, and the zone name, of the local
// zone (SCHED-4).
const localZoneName = "Local"

// zoneOf resolves Timezone as SCHED-4 does and names it for display.
func zoneOf(tz string, local *time.Location) (*time.Location, string, error) {
	if tz == "" || tz == localZoneName {
		name := localZoneName
		if s := local.String(); s != localZoneName {
			name += " (" + s + ")"
		}
		return local, name, nil
	}
	loc, err := time.LoadLocation(tz)
	if err != nil {
		return nil, "", err
	}
	return loc, tz, nil
}
