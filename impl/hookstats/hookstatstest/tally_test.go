package hookstatstest_test

import (
	"math"
	"strings"
	"testing"

	"github.com/allocsim/allocsim/impl/hookstats/hookstatstest"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metrics "github.com/hashicorp/go-metrics"
	"pgregory.net/rapid"
)

// TestTallyIsInmemSink feeds the same emissions, in the same order, to
// an InmemSink and to a Tally: Read of the one is the Metrics of the
// other, with keys that flatten alike (spaces), repeated keys, labels in
// different orders, NaN, infinities and signed zeros.
func TestTallyIsInmemSink(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		// Few words, so that keys repeat and flatten alike often.
		word := rapid.SampledFrom([]string{"a", "a b", "a_b", " "})
		val := rapid.OneOf(rapid.Float32(), rapid.SampledFrom([]float32{0, float32(math.Copysign(0, -1)),
			float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1, 2}))
		sink := hookstatstest.NewSink()
		var tally hookstatstest.Tally
		for range rapid.IntRange(0, 40).Draw(rt, "emissions") {
			key := rapid.SliceOfN(word, 1, 2).Draw(rt, "key")
			var labels []metrics.Label
			if n := rapid.IntRange(-1, 2).Draw(rt, "labels"); n >= 0 {
				labels = []metrics.Label{}
				for range n {
					labels = append(labels, metrics.Label{Name: word.Draw(rt, "name"), Value: word.Draw(rt, "value")})
				}
			}
			v := val.Draw(rt, "value")
			kind := rapid.SampledFrom([]hookstatstest.Kind{hookstatstest.Counter, hookstatstest.Sample}).Draw(rt, "kind")
			if kind == hookstatstest.Counter {
				sink.IncrCounterWithLabels(key, v, labels)
			} else {
				sink.AddSampleWithLabels(key, v, labels)
			}
			tally.Add(kind, strings.Join(key, "."), labels, v)
		}
		if diff := cmp.Diff(hookstatstest.Read(sink), tally.Metrics(), cmpopts.EquateNaNs()); diff != "" {
			rt.Fatalf("Tally differs from the InmemSink (-sink +tally):\n%s", diff)
		}
	})
}
