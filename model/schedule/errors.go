package schedule

import "errors"

// The exact messages of SPEC SCHED-1, SCHED-2 and SCHED-8. Tests
// compare them verbatim; callers compare errors with errors.Is against the
// sentinels below, which carry these texts.
const (
	// MsgEnterpriseOnly is the ce rejection of any task schedule (SCHED-1,
	// SCOPE-2).
	MsgEnterpriseOnly = "task schedules requires Nomad Enterprise"
	// MsgNoCron is SCHED-2 rule 1: the Schedule has a null Cron.
	MsgNoCron = "must specify cron block"
	// MsgStartFields is SCHED-2 rule 2: Start lacks exactly 5 spaces.
	MsgStartFields = "cron.start must contain 6 fields"
	// MsgEndFields is SCHED-2 rule 3: End lacks exactly 1 space.
	MsgEndFields = "cron.end must contain 2 fields"
	// MsgStartChars is SCHED-2 rule 4: Start contains '/' or ','.
	MsgStartChars = `cron.start must not contain "/,"`
	// MsgEndChars is SCHED-2 rule 5: End contains '/' or ','.
	MsgEndChars = `cron.end must not contain "/,"`

	// MsgInvalidTimezone prefixes a zone loading failure (SCHED-8):
	// `invalid timezone in schedule: <err>`.
	MsgInvalidTimezone = "invalid timezone in schedule"
	// MsgInvalidStart prefixes a Start parse failure (SCHED-8):
	// `invalid start time in schedule: "<start>"; <err>`.
	MsgInvalidStart = "invalid start time in schedule"
	// MsgInvalidEnd prefixes an End parse failure (SCHED-8):
	// `invalid end time in schedule: "<end>"; <err>`.
	MsgInvalidEnd = "invalid end time in schedule"
)

// Sentinel errors carrying the messages above. Validate returns them
// unwrapped, so err.Error() is the exact SPEC text; Evaluate wraps the last
// three around the zone or cron error (SCHED-8).
var (
	ErrEnterpriseOnly = errors.New(MsgEnterpriseOnly)
	ErrNoCron         = errors.New(MsgNoCron)
	ErrStartFields    = errors.New(MsgStartFields)
	ErrEndFields      = errors.New(MsgEndFields)
	ErrStartChars     = errors.New(MsgStartChars)
	ErrEndChars       = errors.New(MsgEndChars)

	ErrInvalidTimezone = errors.New(MsgInvalidTimezone)
	ErrInvalidStart    = errors.New(MsgInvalidStart)
	ErrInvalidEnd      = errors.New(MsgInvalidEnd)
)
