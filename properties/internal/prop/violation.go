package prop

import (
	"fmt"
	"strings"
	"time"

	"github.com/allocsim/allocsim/sim/trace"
)

// Violation is one broken rule at one instant.
type Violation struct {
	// At is the virtual instant.
	At time.Time
	// Zone is the local zone At is also shown in (the task's).
	Zone *time.Location
	// Alloc and Task locate it (either may be empty); Name is the
	// alloc's name ("<job>.<group>[<i>]").
	Alloc, Name, Task string
	// What is the observed quantity; Got and Want its values.
	What, Got, Want string
	// World, when set, is a verdict of the world's own checks of every
	// run (DET-1 stamps, SYNC-1 late pushes, goroutines left, DET-4),
	// complete in itself: it names its rule, the runner, the seed, where
	// and both sides. It is printed as is, after the instant.
	World string
}

// String is "<alloc>/<task> @<virtual time (local time zone)>: <what> =
// <got>, want <want>".
func (x Violation) String() string {
	var b strings.Builder
	switch {
	case x.Name != "" && x.Task != "":
		fmt.Fprintf(&b, "%s/%s ", x.Name, x.Task)
	case x.Name != "":
		fmt.Fprintf(&b, "%s ", x.Name)
	case x.Alloc != "" && x.Task != "":
		fmt.Fprintf(&b, "%s/%s ", short(x.Alloc), x.Task)
	case x.Alloc != "":
		fmt.Fprintf(&b, "%s ", short(x.Alloc))
	}
	fmt.Fprintf(&b, "@%s", When(x.At, x.Zone))
	if x.World != "" {
		fmt.Fprintf(&b, ": %s", x.World)
		return b.String()
	}
	fmt.Fprintf(&b, ": %s = %s, want %s", x.What, x.Got, x.Want)
	return b.String()
}

// When prints a virtual instant in UTC and, for a zone other than UTC, in
// that zone: "2024-03-10T07:00:00Z (03:00:00 EDT America/New_York)".
func When(t time.Time, zone *time.Location) string {
	s := t.UTC().Format(trace.TimeFormat)
	if zone == nil || zone == time.UTC || zone.String() == "UTC" {
		return s
	}
	l := t.In(zone)
	day := ""
	if y, m, d := l.Date(); y != t.UTC().Year() || m != t.UTC().Month() || d != t.UTC().Day() {
		day = l.Format("2006-01-02 ")
	}
	return fmt.Sprintf("%s (%s%s %s)", s, day, l.Format("15:04:05.999999999 MST"), zone)
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// Rule is the rule a world verdict names first ("DET-1", "SYNC-1"), or
// "" for a checker's violation.
func (x Violation) Rule() string {
	if x.World == "" {
		return ""
	}
	rule, _, _ := strings.Cut(x.World, " ")
	return rule
}
