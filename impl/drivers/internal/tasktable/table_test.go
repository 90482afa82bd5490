package tasktable

import (
	"errors"
	"testing"

	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/shoenig/test/must"
)

var errClosed = errors.New("test driver closed")

// fakeTask counts its abandons.
type fakeTask struct{ abandoned int }

func (f *fakeTask) Abandon() { f.abandoned++ }

// TestTableLookup: an unknown ID is drivers.ErrTaskNotFound, a held one
// is found, a deleted one is gone again.
func TestTableLookup(t *testing.T) {
	tb := New[*fakeTask](errClosed)
	_, err := tb.Lookup("a/web")
	must.ErrorIs(t, err, drivers.ErrTaskNotFound)
	_, ok := tb.Get("a/web")
	must.False(t, ok)

	web := &fakeTask{}
	tb.Put("a/web", web)
	got, err := tb.Lookup("a/web")
	must.NoError(t, err)
	must.True(t, got == web)
	got, ok = tb.Get("a/web")
	must.True(t, ok && got == web)

	other := &fakeTask{}
	tb.Put("a/web", other)
	got, _ = tb.Lookup("a/web")
	must.True(t, got == other, must.Sprint("Put replaces"))

	tb.Delete("a/web")
	_, err = tb.Lookup("a/web")
	must.ErrorIs(t, err, drivers.ErrTaskNotFound)
}

// TestTableClose: Close abandons every task once, closes Closing, and
// every later Lookup fails with the closed error, even for a task it
// held. It is idempotent.
func TestTableClose(t *testing.T) {
	tb := New[*fakeTask](errClosed)
	a, b := &fakeTask{}, &fakeTask{}
	tb.Put("a/a", a)
	tb.Put("a/b", b)
	must.False(t, tb.Closed())
	select {
	case <-tb.Closing():
		t.Fatal("Closing closed before Close")
	default:
	}

	tb.Close()
	tb.Close()
	must.True(t, tb.Closed())
	must.Eq(t, 1, a.abandoned)
	must.Eq(t, 1, b.abandoned)
	<-tb.Closing()
	_, err := tb.Lookup("a/a")
	must.ErrorIs(t, err, errClosed)
	_, ok := tb.Get("a/a")
	must.False(t, ok)
}

// TestTableAwait: Await returns nil once done is closed, the closed error
// once the table closes; a done channel already closed wins over an open
// table.
func TestTableAwait(t *testing.T) {
	tb := New[*fakeTask](errClosed)
	done := make(chan struct{})
	close(done)
	must.NoError(t, tb.Await(done))

	result := make(chan error, 1)
	go func() { result <- tb.Await(make(chan struct{})) }()
	tb.Close()
	must.ErrorIs(t, <-result, errClosed)
}
