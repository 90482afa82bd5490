package cluster

import (
	"fmt"
	"testing/synctest"
	"time"
)

// maxStepsPerInstant bounds the settled steps at one instant: more means
// something keeps arming zero-length timers (a livelock).
const maxStepsPerInstant = 100000

// maxDrainSteps bounds how long Close advances the clock for the clients'
// shutdowns.
const maxDrainSteps = 1000000

// Advance runs the cluster for d of virtual time (package doc).
func (c *Cluster) Advance(d time.Duration) { c.AdvanceTo(c.clk.Now().Add(d)) }

// AdvanceTo runs the cluster to instant t, one instant at a time: settle,
// move the clock to the next due timer (firing every timer due then, a
// barrier between two), settle again; then to t itself. It does nothing
// for a t not after now. A livelock (too many steps at one instant) stops
// it and is an error of Close.
func (c *Cluster) AdvanceTo(t time.Time) {
	synctest.Wait()
	same := 0
	for {
		now := c.clk.Now()
		next, ok := c.clk.Next()
		if !ok || next.After(t) {
			break
		}
		c.clk.Add(max(0, next.Sub(now)))
		synctest.Wait()
		c.steps++
		if !c.clk.Now().Equal(now) {
			same = 0
		} else if same++; same > maxStepsPerInstant {
			c.errs = append(c.errs, fmt.Errorf("cluster: livelock: more than %d steps at %s", maxStepsPerInstant, now.UTC()))
			return
		}
	}
	if d := t.Sub(c.clk.Now()); d > 0 {
		c.clk.Add(d)
		synctest.Wait()
		c.steps++
	}
}

// drain advances the clock one instant at a time until done is closed;
// with no timer left and done still open, what it waits for hangs (an
// error of Close).
func (c *Cluster) drain(done <-chan struct{}, what string) {
	for range maxDrainSteps {
		synctest.Wait()
		select {
		case <-done:
			return
		default:
		}
		next, ok := c.clk.Next()
		if !ok {
			c.errs = append(c.errs, fmt.Errorf("cluster: %s hangs with no timer left at %s", what, c.clk.Now().UTC()))
			return
		}
		c.clk.Add(max(0, next.Sub(c.clk.Now())))
	}
	c.errs = append(c.errs, fmt.Errorf("cluster: %s did not finish within %d steps", what, maxDrainSteps))
}
