package state

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

type sameInner struct {
	S string
	n int // unexported: JSON does not see it
}

type sameEmbedded struct{ E int }

type sameOuter struct {
	P  *sameInner
	M  map[string]string
	L  []int
	A  any
	F  float64
	T  time.Time
	Ar [2]string
	sameEmbedded
	Next *sameOuter
}

// TestSame: same is true only for values of identical JSON encoding, and
// false for every kind of difference JSON can see (and some it cannot).
func TestSame(t *testing.T) {
	utc := time.Date(2024, 6, 14, 9, 0, 0, 0, time.UTC)
	paris := utc.In(time.FixedZone("CEST", 2*3600))
	cases := []struct {
		name string
		a, b any
		want bool
	}{
		{"equal", &sameOuter{P: &sameInner{S: "x"}, M: map[string]string{"k": "v"}, L: []int{1}, A: map[string]any{"n": 1.0}, T: utc},
			&sameOuter{P: &sameInner{S: "x"}, M: map[string]string{"k": "v"}, L: []int{1}, A: map[string]any{"n": 1.0}, T: utc}, true},
		{"unexported field ignored", &sameOuter{P: &sameInner{n: 1}}, &sameOuter{P: &sameInner{n: 2}}, true},
		{"zero", &sameOuter{}, &sameOuter{}, true},
		{"string", &sameInner{S: "a"}, &sameInner{S: "b"}, false},
		{"nil vs empty map", &sameOuter{}, &sameOuter{M: map[string]string{}}, false},
		{"map value", &sameOuter{M: map[string]string{"k": "v"}}, &sameOuter{M: map[string]string{"k": "w"}}, false},
		{"map key", &sameOuter{M: map[string]string{"k": ""}}, &sameOuter{M: map[string]string{"j": ""}}, false},
		{"nil vs empty slice", &sameOuter{}, &sameOuter{L: []int{}}, false},
		{"slice length", &sameOuter{L: []int{1}}, &sameOuter{L: []int{1, 1}}, false},
		{"nil vs pointer", &sameOuter{}, &sameOuter{P: &sameInner{}}, false},
		{"negative zero", &sameOuter{F: 0}, &sameOuter{F: math.Copysign(0, -1)}, false},
		{"any dynamic type", &sameOuter{A: 1}, &sameOuter{A: 1.0}, false},
		{"any nil", &sameOuter{}, &sameOuter{A: 1.0}, false},
		{"same instant, other zone", &sameOuter{T: utc}, &sameOuter{T: paris}, false},
		{"array", &sameOuter{Ar: [2]string{"a"}}, &sameOuter{Ar: [2]string{"", "a"}}, false},
		{"embedded", &sameOuter{sameEmbedded: sameEmbedded{E: 1}}, &sameOuter{}, false},
		{"other types", &sameInner{}, &sameOuter{}, false},
		{"nil", nil, &sameOuter{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			must.Eq(t, c.want, same(c.a, c.b))
			must.Eq(t, c.want, same(c.b, c.a))
			if c.want {
				ja, err := json.Marshal(c.a)
				must.NoError(t, err)
				jb, err := json.Marshal(c.b)
				must.NoError(t, err)
				must.Eq(t, string(ja), string(jb))
			}
		})
	}
}

func TestSameCycleIsFalse(t *testing.T) {
	a, b := &sameOuter{}, &sameOuter{}
	a.Next, b.Next = a, b // two distinct cycles: compared until the depth bound
	must.False(t, same(a, b))
	must.True(t, same(a, a)) // one pointer: same without walking
}

func TestSameAllocs(t *testing.T) {
	alloc := func() *structs.Allocation {
		return &structs.Allocation{ID: "a", Job: &structs.Job{ID: "j", TaskGroups: []*structs.TaskGroup{{Name: "g",
			Tasks: []*structs.Task{{Name: "t", Config: map[string]any{"kill_after": "1s"}}}}}},
			TaskStates: map[string]*structs.TaskState{"t": {State: "running", Events: []*structs.TaskEvent{
				{Type: "Started", Details: map[string]string{}}}}}}
	}
	must.True(t, same(alloc(), alloc()))
	b := alloc()
	b.TaskStates["t"].Events[0].Details["x"] = "y"
	must.False(t, same(alloc(), b))
	b = alloc()
	b.Job.TaskGroups[0].Tasks[0].Config["kill_after"] = "2s"
	must.False(t, same(alloc(), b))
}
