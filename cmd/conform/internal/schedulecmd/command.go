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

// Config holds the production adapters the command reads. The zero Config
// uses time.Now and time.Local.
type Config struct {
	// Now is the clock behind the default --at; nil means time.Now.
	Now func() time.Time
	// Local is the zone used when --timezone is empty or "Local" (SCHED-4);
	// nil means time.Local.
	Local *time.Location
}

// Run runs `conform schedule` with the production adapters.
func Run(name string, args []string, stdout, stderr io.Writer) error {
	return Config{}.Run(name, args, stdout, stderr)
}

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
		return cli.Usagef(msgExtraArgs, fs.Arg(0))
	}
	var missing []string
	for _, f := range []string{"start", "end"} {
		if !cli.IsSet(fs, f) {
			missing = append(missing, "--"+f)
		}
	}
	if len(missing) > 0 {
		return cli.Usagef(msgMissingFlags, strings.Join(missing, ", "))
	}
	switch schedule.Profile(o.profile) {
	case schedule.ProfileEnt, schedule.ProfileCE:
	default:
		return cli.Usagef(msgBadProfile, o.profile)
	}
	if o.next < 0 || o.next > MaxNext {
		return cli.Usagef(msgBadNext, o.next, MaxNext)
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
		return time.Time{}, cli.Usage(fmt.Errorf(msgBadAt, s, err))
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
