package schedule

import (
	"fmt"
	"strings"
)

// Validate is the registration check of SPEC SCHED-2, pure: no parsing and
// no zone loading (Evaluate reports those, SCHED-8).
//
// A nil Schedule is an unscheduled task and is valid under every profile.
// Under ProfileCE any non-nil Schedule, even one with a nil Cron, fails with
// ErrEnterpriseOnly. Under ProfileEnt the first failing rule of SCHED-2
// wins:
//
//  1. Cron is nil: ErrNoCron;
//  2. Start does not hold exactly 5 literal spaces: ErrStartFields;
//  3. End does not hold exactly 1 literal space: ErrEndFields;
//  4. Start contains '/' or ',': ErrStartChars;
//  5. End contains '/' or ',': ErrEndChars.
//
// Any other profile is an error naming it (SPEC defines only ce and ent).
func Validate(s *Schedule, p Profile) error {
	if s == nil {
		return nil
	}
	switch p {
	case ProfileCE:
		return ErrEnterpriseOnly
	case ProfileEnt:
		return validateEnt(s)
	default:
		return fmt.Errorf("unknown schedule profile %q", string(p))
	}
}

// validateEnt applies the five ent rules of SCHED-2 in order. Only single
// space characters count, so tabs, double spaces and macros such as @daily
// fail the field counts.
func validateEnt(s *Schedule) error {
	c := s.Cron
	switch {
	case c == nil:
		return ErrNoCron
	case strings.Count(c.Start, " ") != 5:
		return ErrStartFields
	case strings.Count(c.End, " ") != 1:
		return ErrEndFields
	case strings.ContainsAny(c.Start, "/,"):
		return ErrStartChars
	case strings.ContainsAny(c.End, "/,"):
		return ErrEndChars
	}
	return nil
}
