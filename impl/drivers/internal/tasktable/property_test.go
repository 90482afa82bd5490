package tasktable

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/allocsim/allocsim/plugins/drivers"
	"pgregory.net/rapid"
)

// exitOp is one step on an Exit: a Wait, the end of a waiter's context,
// a Deliver or an Abandon.
type exitOp struct {
	kind   string // "wait", "cancel", "deliver", "abandon"
	waiter int    // cancel: which waiter (modulo the count)
	code   int    // deliver: the exit code
}

func (o exitOp) String() string { return fmt.Sprintf("%s(%d,%d)", o.kind, o.waiter, o.code) }

// outcome is what the naive model expects of one waiter's channel.
type outcome struct {
	state string // "pending", "closed" (no value), "result"
	code  int
}

// model plays ops on plain values, straight from the package doc.
func model(ops []exitOp) (waiters []outcome, exited bool) {
	exitState, code := "pending", 0
	for _, op := range ops {
		switch op.kind {
		case "wait":
			switch exitState {
			case "exited":
				waiters = append(waiters, outcome{"result", code})
			case "abandoned":
				waiters = append(waiters, outcome{state: "closed"})
			default:
				waiters = append(waiters, outcome{state: "pending"})
			}
		case "cancel":
			if len(waiters) > 0 && waiters[op.waiter%len(waiters)].state == "pending" {
				waiters[op.waiter%len(waiters)] = outcome{state: "closed"}
			}
		case "deliver", "abandon":
			if exitState != "pending" {
				continue
			}
			end := outcome{state: "closed"}
			exitState = "abandoned"
			if op.kind == "deliver" {
				end, exitState, code = outcome{"result", op.code}, "exited", op.code
			}
			for i := range waiters {
				if waiters[i].state == "pending" {
					waiters[i] = end
				}
			}
		}
	}
	return waiters, exitState == "exited"
}

// TestExitMatchesModel: for any interleaving of waits, context ends,
// delivers and abandons, every WaitTask channel ends up as the model says
// (one value at most, closed once) and Done is closed iff the task exited.
func TestExitMatchesModel(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		ops := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) exitOp {
			return exitOp{
				kind:   rapid.SampledFrom([]string{"wait", "wait", "cancel", "cancel", "deliver", "abandon"}).Draw(t, "kind"),
				waiter: rapid.IntRange(0, 7).Draw(t, "waiter"),
				code:   rapid.IntRange(0, 3).Draw(t, "code"),
			}
		}), 0, 12).Draw(rt, "ops")
		want, wantExited := model(ops)
		var failure string
		// rapid cannot run inside a bubble; each case gets its own.
		synctest.Test(t, func(t *testing.T) { failure = playExit(t, ops, want, wantExited) })
		if failure != "" {
			rt.Fatalf("%v: %s", ops, failure)
		}
	})
}

// playExit plays ops on an Exit, as a driver would (under its lock), and
// returns how the channels differ from want, "" if they do not.
func playExit(t *testing.T, ops []exitOp, want []outcome, wantExited bool) string {
	var mu sync.Mutex
	e := NewExit()
	var chans []<-chan *drivers.ExitResult
	var cancels []context.CancelFunc
	for _, op := range ops {
		mu.Lock()
		switch op.kind {
		case "wait":
			ctx, cancel := context.WithCancel(t.Context())
			chans, cancels = append(chans, e.Wait(ctx, &mu)), append(cancels, cancel)
		case "deliver":
			e.Deliver(&drivers.ExitResult{ExitCode: op.code})
		case "abandon":
			e.Abandon()
		}
		mu.Unlock()
		if op.kind == "cancel" && len(cancels) > 0 {
			cancels[op.waiter%len(cancels)]()
			synctest.Wait()
		}
	}
	defer func() {
		for _, cancel := range cancels {
			cancel()
		}
	}()
	for i, ch := range chans {
		g := peek(ch)
		var have outcome
		switch {
		case g.empty:
			have = outcome{state: "pending"}
		case g.res == nil && g.closed:
			have = outcome{state: "closed"}
		case g.res != nil && g.closed:
			have = outcome{"result", g.res.ExitCode}
		default:
			return fmt.Sprintf("waiter %d: value %+v without a close", i, g.res)
		}
		if have != want[i] {
			return fmt.Sprintf("waiter %d = %+v, want %+v", i, have, want[i])
		}
	}
	if isClosed(e.Done()) != wantExited {
		return fmt.Sprintf("Done closed = %t, want %t", !wantExited, wantExited)
	}
	return ""
}
