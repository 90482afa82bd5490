package bad

import rc "github.com/benbjohnson/clock"

// An aliased import of the real clock is still the real clock.
func realClock() rc.Clock {
	newClock := rc.New // a method value counts too
	_ = newClock
	return rc.New()
}
