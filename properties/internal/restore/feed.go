package restore

import "github.com/allocsim/allocsim/properties/internal/prop"

// key names one task of one alloc; the feed yields the task events
// appended since the previous settled instant (prop.EventFeed). A
// restored task's events are no new events: they are at or before the
// last instant seen.
type key = prop.TaskKey

func newFeed() *prop.EventFeed { return prop.NewEventFeed() }
