package schedulecmd

// MaxNext caps --next: listing more windows than this is refused as invalid
// input, so a typo cannot make the command walk the calendar to 2099.
const MaxNext = 1000

// Messages of the command's own checks. SPEC messages come verbatim from
// model/schedule and are not repeated here.
const (
	msgMissingFlags = "missing required flag(s): %s"
	msgExtraArgs    = "unexpected argument %q: conform schedule takes only flags"
	msgBadProfile   = "invalid --profile %q: want ent or ce"
	msgBadNext      = "invalid --next %d: want 0 to %d (the cap on listed windows)"
	msgBadAt        = "invalid --at %q: want RFC 3339 such as 2024-03-10T07:30:00Z or 2024-03-10T03:30:00-04:00: %w"
)

// Text shown in the human report.
const (
	statusInside        = "inside: the task may run now"
	statusInsideForever = "inside: the task may run now; the window never closes"
	statusOutside       = "outside: the task is paused until the next start"
	statusOutsideNever  = "outside: no future start, the task stays paused"
	stampNever          = "never"
	stampNone           = "none"
	localZoneName       = "Local"
)
