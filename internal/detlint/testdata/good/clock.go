package good

import "github.com/benbjohnson/clock"

type factory struct{}

func (factory) New() clock.Clock { return clock.NewMock() }

// An injected clock, the mock and a local called clock are all fine.
func clocks(c clock.Clock) []clock.Clock {
	out := []clock.Clock{c, clock.NewMock()}
	clock := factory{} // a local called clock is not the package
	return append(out, clock.New())
}
