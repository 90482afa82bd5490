package csi

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/allocsim/allocsim/sim/vclock"
	"github.com/shoenig/test/must"
)

var t0 = time.Date(2024, 6, 14, 9, 0, 0, 0, time.UTC)

var vol = &structs.VolumeRequest{Name: "data", Type: structs.VolumeTypeCSI, Source: "vol-1"}

var errBoom = errors.New("boom")

type fixed struct {
	latency time.Duration
	err     error
}

func (f fixed) CSIMount(string, string) (time.Duration, error) { return f.latency, f.err }

// TestMountTakesItsLatency: a mount returns after its latency on the
// virtual clock, with invoke and return traced at their instants
// (HOOKRES-2's blocking point under the simulator's control).
func TestMountTakesItsLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		rec := trace.NewRecorder(true)
		p := New(Config{Clock: clk, Faults: fixed{latency: 2 * time.Second}, Trace: rec})
		type res struct {
			src string
			err error
		}
		done := make(chan res, 1)
		go func() {
			mp, err := p.MountVolume(context.Background(), "a1", "data", vol)
			if err != nil {
				done <- res{err: err}
				return
			}
			done <- res{src: mp.Source}
		}()
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("mount returned before its latency")
		default:
		}
		clk.Add(2 * time.Second)
		r := <-done
		must.NoError(t, r.err)
		must.EqOp(t, "/csi/per-alloc/a1/data/vol-1", r.src)
		must.Eq(t, map[string]string{"a1/data": r.src}, p.Mounts())
		must.Eq(t, []string{"a1/data"}, p.MountKeys())
		rec.Flush()
		recs := rec.Records()
		must.SliceLen(t, 2, recs)
		must.EqOp(t, "invoke", recs[0].Msg)
		must.EqOp(t, t0, recs[0].At)
		must.EqOp(t, "return", recs[1].Msg)
		must.EqOp(t, t0.Add(2*time.Second), recs[1].At)
		must.EqOp(t, "MountVolume:data", recs[1].Op)
		must.NoError(t, p.UnmountVolume(context.Background(), "a1", "data", vol))
		must.MapEmpty(t, p.Mounts())
		must.EqOp(t, 1, p.Calls(OpMount))
		must.EqOp(t, 1, p.Calls(OpUnmount))
	})
}

func TestMountFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := vclock.New(t0)
		p := New(Config{Clock: clk, Faults: fixed{err: errBoom}})
		_, err := p.MountVolume(context.Background(), "a1", "data", vol)
		must.ErrorIs(t, err, errBoom)
		must.ErrorContains(t, err, "mount data for alloc a1")
		_, err = p.MountVolume(context.Background(), "a1", "host", &structs.VolumeRequest{Type: "host"})
		must.ErrorIs(t, err, errNotCSI)
		_, err = p.MountVolume(context.Background(), "a1", "nil", nil)
		must.ErrorIs(t, err, errNotCSI)
		must.MapEmpty(t, p.Mounts())

		slow := New(Config{Clock: clk, Faults: fixed{latency: time.Minute}})
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := slow.MountVolume(ctx, "a1", "data", vol)
			errc <- err
		}()
		synctest.Wait()
		cancel()
		must.ErrorIs(t, <-errc, context.Canceled, must.Sprint("a caller that gives up gets its context error"))

		plain := New(Config{Clock: clk})
		mp, err := plain.MountVolume(context.Background(), "a2", "data", vol)
		must.NoError(t, err)
		must.False(t, mp.IsDevice)
	})
}
