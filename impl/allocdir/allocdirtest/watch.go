package allocdirtest

import (
	"context"
	"errors"
	"slices"
	"testing/synctest"

	"github.com/allocsim/allocsim/impl/interfaces"
)

// poll lets every goroutine arm its timers, advances the clock by PollStep
// and lets the consequences settle.
func (e *env) poll() {
	synctest.Wait()
	e.clk.Add(PollStep)
	synctest.Wait()
}

// What a non-blocking receive saw.
const (
	nothing = iota
	value
	closed
)

func tryRecv(ch <-chan error) (int, error) {
	select {
	case err, ok := <-ch:
		if !ok {
			return closed, nil
		}
		return value, err
	default:
		return nothing, nil
	}
}

// wantSent requires ch to hold one value matching want (nil or a
// context error), then to be closed.
func (r *report) wantSent(op string, ch chan error, want error) {
	state, err := tryRecv(ch)
	if state != value || !errors.Is(err, want) {
		r.add("%s: received (state %d, %v), want the value %v", op, state, err, want)
		return
	}
	synctest.Wait()
	if state, err := tryRecv(ch); state != closed {
		r.add("%s: after the value received (state %d, %v), want the channel closed", op, state, err)
	}
}

// checkBlockUntilExists: nothing before the path exists; nil at the first
// poll after; the cancel error once ctx is cancelled; then closed (ADIR-5).
func checkBlockUntilExists(e *env) error {
	r := &report{}
	a, err := e.alloc("a1")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const p = "alloc/logs/web.stdout.0"
	ch, err := a.BlockUntilExists(ctx, p)
	if err != nil || ch == nil {
		r.add("BlockUntilExists(ctx, %q) = %v, %v, want a channel", p, ch, err)
		return r.err()
	}
	e.poll()
	if state, err := tryRecv(ch); state != nothing {
		r.add("BlockUntilExists(ctx, %q) before the path exists: received (state %d, %v), want nothing", p, state, err)
	}
	if err := a.files(p, "x"); err != nil {
		return err
	}
	e.poll()
	r.wantSent("BlockUntilExists(ctx, "+p+") after the path appeared", ch, nil)

	if ch, err := a.BlockUntilExists(ctx, p); r.wantNil("BlockUntilExists(ctx, existing)", err) && ch != nil {
		e.poll()
		r.wantSent("BlockUntilExists(ctx, existing)", ch, nil)
	}

	cctx, ccancel := context.WithCancel(context.Background())
	defer ccancel()
	ch, err = a.BlockUntilExists(cctx, "alloc/logs/never")
	if !r.wantNil(`BlockUntilExists(ctx, "alloc/logs/never")`, err) || ch == nil {
		return r.err()
	}
	e.poll()
	ccancel()
	synctest.Wait()
	r.wantSent(`BlockUntilExists(ctx, "alloc/logs/never") after cancel`, ch, context.Canceled)
	return r.err()
}

// pending drains fc and names the channels that held a notification.
func pending(fc *interfaces.FileChanges) []string {
	var got []string
	for _, c := range []struct {
		name string
		ch   <-chan struct{}
	}{{"Modified", fc.Modified}, {"Truncated", fc.Truncated}, {"Deleted", fc.Deleted}} {
		select {
		case <-c.ch:
			got = append(got, c.name)
		default:
		}
	}
	return got
}

// checkChangeEvents: modify, truncate and delete relative to the offset,
// nothing without a change, nothing after cancel, missing path refused
// (ADIR-5).
func checkChangeEvents(e *env) error {
	r := &report{}
	a, err := e.alloc("a1")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const p, q = "alloc/logs/f", "alloc/logs/g"
	if err := a.files(p, "abc", q, "hello"); err != nil {
		return err
	}
	fc, err := a.ChangeEvents(ctx, p, 3)
	if err != nil || fc == nil || fc.Modified == nil || fc.Truncated == nil || fc.Deleted == nil {
		r.add("ChangeEvents(ctx, %q, 3) = %+v, %v, want three channels", p, fc, err)
		return r.err()
	}
	steps := []struct {
		what   string
		change func() error
		want   func(got []string) bool
		wants  string
	}{
		{"no change", nil, func(g []string) bool { return len(g) == 0 }, "nothing"},
		{"append", func() error { return a.files(p, "abcdef") }, func(g []string) bool { return slices.Equal(g, []string{"Modified"}) }, "Modified"},
		{"no change after append", nil, func(g []string) bool { return len(g) == 0 }, "nothing"},
		{"truncate", func() error { return a.files(p, "ab") }, func(g []string) bool { return slices.Contains(g, "Truncated") && !slices.Contains(g, "Deleted") }, "Truncated"},
		{"delete", func() error { return a.w.Remove(p) }, func(g []string) bool { return slices.Contains(g, "Deleted") }, "Deleted"},
	}
	for _, s := range steps {
		if s.change != nil {
			if err := s.change(); err != nil {
				return err
			}
		}
		e.poll()
		if got := pending(fc); !s.want(got) {
			r.add("ChangeEvents(ctx, %q, 3) after %s: notified %q, want %s", p, s.what, got, s.wants)
		}
	}

	if fc, err := a.ChangeEvents(ctx, q, 0); r.wantNil("ChangeEvents(ctx, "+q+", 0)", err) && fc != nil {
		e.poll()
		if got := pending(fc); !slices.Equal(got, []string{"Modified"}) {
			r.add("ChangeEvents(ctx, %q, 0) with 5 bytes past the offset: notified %q, want Modified", q, got)
		}
	}
	_, err = a.ChangeEvents(ctx, "alloc/logs/missing", 0)
	r.wantNotExist(`ChangeEvents(ctx, "alloc/logs/missing", 0)`, err)

	cctx, ccancel := context.WithCancel(context.Background())
	fc, err = a.ChangeEvents(cctx, q, 5)
	if r.wantNil("ChangeEvents(ctx, "+q+", 5)", err) && fc != nil {
		ccancel()
		synctest.Wait()
		if err := a.files(q, "hello, world"); err != nil {
			return err
		}
		e.poll()
		if got := pending(fc); len(got) != 0 {
			r.add("ChangeEvents(ctx, %q, 5) after cancel and an append: notified %q, want nothing", q, got)
		}
	}
	ccancel()
	return r.err()
}
