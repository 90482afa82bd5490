package sweepcmd

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/allocsim/allocsim/cmd/conform/internal/suiterun"
	"github.com/allocsim/allocsim/reports"
	"github.com/shoenig/test/must"
)

// fakeSuite stands in for suiterun.Run: each batch takes a random
// virtual time (a synctest bubble), passes every seed except a
// property's failing one, and records what each property was asked and
// whether a property was ever in two batches at once.
type fakeSuite struct {
	props  []string
	failAt map[string]uint64

	mu       sync.Mutex
	rng      *rand.Rand
	inFlight map[string]bool
	running  int
	peak     int
	asked    map[string][]Range
	wrong    []string
}

func (s *fakeSuite) run(_ context.Context, plan suiterun.Plan) (reports.Run, error) {
	props := plan.Properties
	if props == nil {
		props = s.props
	}
	seeds := Range{From: plan.SeedsFrom, To: plan.SeedsTo}
	s.mu.Lock()
	for _, id := range props {
		if s.inFlight[id] {
			s.wrong = append(s.wrong, fmt.Sprintf("%s in two batches at once (%s)", id, seeds))
		}
		s.inFlight[id] = true
		s.asked[id] = append(s.asked[id], seeds)
	}
	s.running++
	s.peak = max(s.peak, s.running)
	d := time.Duration(1+s.rng.IntN(50)) * time.Second * time.Duration(len(props))
	s.mu.Unlock()

	time.Sleep(d)

	var results []reports.Property
	for _, id := range props {
		if f, ok := s.failAt[id]; ok && seeds.Contains(f) {
			results = append(results, fail(id, f, int(f-seeds.From+1)))
		} else {
			results = append(results, pass(id, int(seeds.Len())))
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.running--
	for _, id := range props {
		s.inFlight[id] = false
	}
	return reports.Run{Runners: []reports.Runner{{Name: "reference", Properties: results}}}, nil
}

// TestBatchesKeepEachPropertyInOrder sweeps a fake suite of twelve
// properties, two of which fail, with three workers under random batch
// durations: every property takes its seeds in order, one batch at a
// time, from the first seed to the last (or to its failing seed, and no
// further); workers overlap; the summary covers the range and holds the
// two failures.
func TestBatchesKeepEachPropertyInOrder(t *testing.T) {
	for seed := range uint64(20) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var props []string
				for i := range 12 {
					props = append(props, fmt.Sprintf("P-%d/p", i))
				}
				suite := &fakeSuite{props: props, failAt: map[string]uint64{"P-3/p": 57, "P-7/p": 133},
					rng: rand.New(rand.NewPCG(seed, 1)), inFlight: map[string]bool{}, asked: map[string][]Range{}}
				f := shardFile(t, Range{1, 300}, Shard{1, 1})
				s := &sweeper{t: target{file: f, path: filepath.Join(t.TempDir(), "s.json")}, size: 20, workers: 3,
					stderr: io.Discard, start: time.Now(), run: suite.run}
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				must.NoError(t, s.runAll(ctx, cancel))

				must.SliceEmpty(t, suite.wrong)
				must.Greater(t, 1, suite.peak, must.Sprint("the workers overlap"))
				for _, id := range props {
					asked := suite.asked[id]
					last := uint64(300)
					if f, ok := suite.failAt[id]; ok {
						last = f
					}
					next := uint64(1)
					for _, r := range asked {
						must.EqOp(t, next, r.From, must.Sprintf("%s asked %v: each batch starts where the last ended", id, asked))
						next = r.To + 1
					}
					must.True(t, slices.ContainsFunc(asked, func(r Range) bool { return r.Contains(last) }),
						must.Sprintf("%s asked %v: through seed %d", id, asked, last))
					must.True(t, asked[len(asked)-1].Contains(last), must.Sprintf("%s asked %v: nothing after seed %d", id, asked, last))
				}
				f.refresh()
				must.Eq(t, Set{{1, 300}}, f.Covered)
				must.SliceLen(t, 2, f.Failures)
			})
		})
	}
}

// TestBatchesStopAtAnError: a batch's error (a suite that did not
// report) ends the sweep with that error, and no worker takes a batch
// after it.
func TestBatchesStopAtAnError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		suite := &fakeSuite{props: []string{"A/a", "B/b", "C/c", "D/d"}, failAt: map[string]uint64{},
			rng: rand.New(rand.NewPCG(1, 1)), inFlight: map[string]bool{}, asked: map[string][]Range{}}
		var mu sync.Mutex
		var failedAt time.Time
		var started []time.Time
		run := func(ctx context.Context, plan suiterun.Plan) (reports.Run, error) {
			mu.Lock()
			started = append(started, time.Now())
			mu.Unlock()
			if plan.SeedsFrom == 41 && slices.Contains(plan.Properties, "B/b") {
				time.Sleep(time.Second)
				mu.Lock()
				failedAt = time.Now()
				mu.Unlock()
				return reports.Run{}, fmt.Errorf("the suite reported nothing")
			}
			return suite.run(ctx, plan)
		}
		f := shardFile(t, Range{1, 200}, Shard{1, 1})
		s := &sweeper{t: target{file: f, path: filepath.Join(t.TempDir(), "s.json")}, size: 20, workers: 3,
			stderr: io.Discard, start: time.Now(), run: run}
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		err := s.runAll(ctx, cancel)
		must.ErrorContains(t, err, "chunk 41..60: the suite reported nothing")
		must.False(t, failedAt.IsZero())
		for _, at := range started {
			must.False(t, at.After(failedAt), must.Sprintf("a batch started at %v, after the failed one ended at %v", at, failedAt))
		}
	})
}
