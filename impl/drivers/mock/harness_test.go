package mock

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
	"github.com/shoenig/test/must"
	"go.uber.org/goleak"
)

// harness is one mock driver on a mock clock, recording its trace. Build
// it inside a synctest bubble.
type harness struct {
	clk   *clock.Mock
	d     *Driver
	epoch time.Time

	mu     sync.Mutex
	events []DriverEvent
}

func newHarness(cfg Config) *harness {
	h := &harness{clk: clock.NewMock()}
	h.epoch = h.clk.Now()
	cfg.Clock = h.clk
	cfg.OnEvent = h.record
	h.d = New(cfg)
	return h
}

// restart returns a new driver instance on the same clock and trace, as
// after a client restart; the old one is closed.
func (h *harness) restart(cfg Config) *Driver {
	h.d.Close()
	cfg.Clock = h.clk
	cfg.OnEvent = h.record
	h.d = New(cfg)
	return h.d
}

func (h *harness) record(e DriverEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, e)
}

// trace returns the events as (offset from epoch, op, task, detail).
func (h *harness) trace() []traced {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]traced, len(h.events))
	for i, e := range h.events {
		out[i] = traced{At: e.At.Sub(h.epoch), Op: e.Op, TaskID: e.TaskID, Detail: e.Detail}
	}
	return out
}

// exits returns the Exit events only.
func (h *harness) exits() []traced {
	var out []traced
	for _, e := range h.trace() {
		if e.Op == OpExit {
			out = append(out, e)
		}
	}
	return out
}

type traced struct {
	At     time.Duration
	Op     Op
	TaskID string
	Detail string
}

// advance moves the clock by d, letting every goroutine settle before and
// after (DESIGN "Determinism").
func (h *harness) advance(d time.Duration) {
	synctest.Wait()
	h.clk.Add(d)
	synctest.Wait()
}

// now is the clock's offset from the epoch.
func (h *harness) now() time.Duration { return h.clk.Now().Sub(h.epoch) }

func (h *harness) start(t *testing.T, id string, config map[string]any) *drivers.TaskHandle {
	t.Helper()
	handle, err := h.d.StartTask(taskConfig(id, config))
	must.NoError(t, err)
	return handle
}

func (h *harness) wait(t *testing.T, id string) <-chan *drivers.ExitResult {
	t.Helper()
	ch, err := h.d.WaitTask(context.Background(), id)
	must.NoError(t, err)
	return ch
}

func taskConfig(id string, config map[string]any) *drivers.TaskConfig {
	return &drivers.TaskConfig{ID: id, AllocID: "alloc1", Name: "web", Driver: DefaultName, Config: config}
}

// pending asserts no result has arrived yet.
func pending(t *testing.T, ch <-chan *drivers.ExitResult) {
	t.Helper()
	select {
	case r, ok := <-ch:
		t.Fatalf("WaitTask channel = (%+v, %t), want nothing yet", r, ok)
	default:
	}
}

// result returns the arrived result, failing if there is none.
func result(t *testing.T, ch <-chan *drivers.ExitResult) *drivers.ExitResult {
	t.Helper()
	select {
	case r, ok := <-ch:
		must.True(t, ok, must.Sprint("WaitTask channel closed without a result"))
		_, open := <-ch
		must.False(t, open, must.Sprint("WaitTask channel not closed after the result"))
		return r
	default:
		t.Fatal("WaitTask channel has no result")
		return nil
	}
}

// bubble runs f in a synctest bubble, then checks no goroutine leaked.
func bubble(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	synctest.Test(t, f)
	goleak.VerifyNone(t)
}
