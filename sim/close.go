package sim

import (
	"errors"
	"fmt"

	"github.com/allocsim/allocsim/sim/trace"
)

// maxCloseSteps bounds how long Close advances the clock for callbacks in
// progress and the final shutdown to finish.
const maxCloseSteps = 1000000

// Close ends the run at the current instant: it observes the settled
// world a last time, records the hook telemetry and the "end" record and
// seals the trace (the teardown is not part of the run); then it shuts
// the running client down (connection first, so its blocking queries
// end), advancing the clock as that needs, checks that none of the
// client's goroutines is left and closes the state DB. It returns the
// violations found, joined; they are also appended to the trace.
func (w *World) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return errors.New("sim: world already closed")
	}
	w.closed = true
	inc := w.inc
	w.mu.Unlock()
	defer w.watch.unwatch()
	w.settle()
	w.reportRejections()
	for _, m := range w.Metrics() {
		w.rec.Emit(trace.Record{At: w.clk.Now(), Kind: trace.KindMetric, Op: m.Name, Msg: m.String()})
	}
	w.emit(trace.KindWorld, "end", map[string]any{"steps": w.Steps(), "server": w.srv.Stats()})
	w.rec.Seal()
	w.mu.Lock()
	w.inc = nil
	w.mu.Unlock()
	if inc != nil {
		inc.alive.Store(false)
		w.srv.Connect(w.node.NodeID, nil)
		inc.conn.Close()
		w.await(func() { w.shutdown(inc) }, "client shutdown")
		w.mu.Lock()
		retired := w.retired
		w.retired = nil
		w.mu.Unlock()
		w.checkRetired(retired)
	}
	w.mu.Lock()
	db := w.db
	w.mu.Unlock()
	if err := db.Close(); err != nil {
		w.violation("close state DB: %v", err)
	}
	var errs []error
	for _, v := range w.Violations() {
		errs = append(errs, errors.New(v))
	}
	return errors.Join(errs...)
}

// drain advances the clock one instant at a time until done holds; with
// no timer left and done still false, what it waits for hangs.
func (w *World) drain(done func() bool, what string) {
	grace := false
	for i := 0; i < maxCloseSteps; i++ {
		w.settle()
		if done() {
			return
		}
		next, ok := w.clk.Next()
		if !ok {
			// No timer of the world's clock is left; the bubble's own
			// (a runner sleeping on the time package) may still finish
			// what done waits for (instep.go).
			now := w.clk.Now()
			if w.bubble != nil && !grace {
				grace = true
				for w.stepTo(now.Add(closeGrace)).Before(now.Add(closeGrace)) && !done() {
					w.settle()
				}
				continue
			}
			w.violation("%s hangs with no timer left at %s", what, now.UTC().Format(trace.TimeFormat))
			return
		}
		w.stepTo(next)
	}
	w.violation("%s did not finish within %d steps", what, maxCloseSteps)
}

// Run is the whole of a run: New, Start, Run to the scenario's end,
// Close. It must be called inside a testing/synctest bubble. The world is
// returned even on error, for its trace.
func Run(cfg Config) (*World, error) {
	w, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if err := w.Start(); err != nil {
		return w, errors.Join(err, w.Close())
	}
	w.Run()
	if err := w.Close(); err != nil {
		return w, fmt.Errorf("sim: run %s: %w", w.sc.Name, err)
	}
	return w, nil
}
