package state_test

import (
	"encoding/json"
	"testing"

	"github.com/shoenig/test/must"
	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/state"
	"github.com/allocsim/allocsim/impl/state/statetest"
	"github.com/allocsim/allocsim/plugins/drivers"
)

func jsonOf(t *rapid.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return string(b)
}

// scribbleLocal changes something behind every pointer, map and slice of s.
func scribbleLocal(s *interfaces.LocalState) {
	for _, h := range s.Hooks {
		if h != nil {
			h.PrestartDone = !h.PrestartDone
			for k := range h.Data {
				h.Data[k] += "x"
			}
			for k := range h.Env {
				h.Env[k] += "x"
			}
		}
	}
	if s.Hooks != nil {
		s.Hooks["scribbled"] = &interfaces.HookState{}
	}
	if s.DriverNetwork != nil {
		s.DriverNetwork.IP += "x"
		for k := range s.DriverNetwork.PortMap {
			s.DriverNetwork.PortMap[k]++
		}
	}
	if s.TaskHandle != nil {
		s.TaskHandle.TaskID += "x"
		for i := range s.TaskHandle.DriverState {
			s.TaskHandle.DriverState[i]++
		}
	}
	s.RunComplete = !s.RunComplete
}

func scribbleVolumes(v *interfaces.AllocVolumes) {
	for _, s := range v.CSIVolumes {
		s.VolumeID += "x"
		if s.MountInfo != nil {
			s.MountInfo.Source += "x"
		}
	}
	if v.CSIVolumes != nil {
		v.CSIVolumes["scribbled"] = &interfaces.CSIVolumeStub{}
	}
}

// Copy is deep: the copy equals the original, and scribbling over the copy
// leaves the original as it was.
func TestLocalStateCopyIsDeep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		orig := statetest.GenLocalState().Draw(t, "local_state")
		before := jsonOf(t, orig)
		c := orig.Copy()
		if got := jsonOf(t, c); got != before {
			t.Fatalf("Copy() = %s, want %s", got, before)
		}
		scribbleLocal(c)
		if got := jsonOf(t, orig); got != before {
			t.Fatalf("original after scribbling the copy = %s, want %s", got, before)
		}
	})
}

func TestAllocVolumesCopyIsDeep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		orig := statetest.GenAllocVolumes().Draw(t, "volumes")
		before := jsonOf(t, orig)
		c := orig.Copy()
		if got := jsonOf(t, c); got != before {
			t.Fatalf("Copy() = %s, want %s", got, before)
		}
		scribbleVolumes(c)
		if got := jsonOf(t, orig); got != before {
			t.Fatalf("original after scribbling the copy = %s, want %s", got, before)
		}
	})
}

func TestCopyOfNil(t *testing.T) {
	must.Nil(t, (*interfaces.LocalState)(nil).Copy())
	must.Nil(t, (*interfaces.HookState)(nil).Copy())
	must.Nil(t, (*interfaces.DriverNetwork)(nil).Copy())
	must.Nil(t, (*interfaces.AllocVolumes)(nil).Copy())
	must.Nil(t, (*interfaces.CSIVolumeStub)(nil).Copy())
	ls := interfaces.NewLocalState()
	must.NotNil(t, ls.Hooks)
	must.MapEmpty(t, ls.Hooks)
	must.Eq(t, &interfaces.LocalState{Hooks: map[string]*interfaces.HookState{}, TaskHandle: (*drivers.TaskHandle)(nil)}, ls.Copy())
}

func TestHookStateEqual(t *testing.T) {
	base := func() *interfaces.HookState {
		return &interfaces.HookState{PrestartDone: true, Data: map[string]string{"k": "v"}, Env: map[string]string{"E": "1"}}
	}
	cases := []struct {
		name string
		a, b *interfaces.HookState
		want bool
	}{
		{"both nil", nil, nil, true},
		{"nil and empty", nil, &interfaces.HookState{}, false},
		{"equal", base(), base(), true},
		{"nil map equals empty map", &interfaces.HookState{}, &interfaces.HookState{Data: map[string]string{}, Env: map[string]string{}}, true},
		{"done differs", base(), &interfaces.HookState{Data: base().Data, Env: base().Env}, false},
		{"data differs", base(), &interfaces.HookState{PrestartDone: true, Data: map[string]string{"k": "w"}, Env: base().Env}, false},
		{"env differs", base(), &interfaces.HookState{PrestartDone: true, Data: base().Data, Env: map[string]string{}}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			must.EqOp(t, tc.want, tc.a.Equal(tc.b))
			must.EqOp(t, tc.want, tc.b.Equal(tc.a))
		})
	}
}

func TestWriteString(t *testing.T) {
	cases := []struct {
		w    state.Write
		want string
	}{
		{state.Write{Op: state.OpPut, AllocID: "a1", Key: state.KeyAlloc}, "put a1/alloc"},
		{state.Write{Op: state.OpPut, AllocID: "a1", Task: "web", Key: state.KeyTaskState}, "put a1/task-web/task_state"},
		{state.Write{Op: state.OpDelete, AllocID: "a1", Task: "web"}, "delete a1/task-web"},
		{state.Write{Op: state.OpDelete, AllocID: "a1"}, "delete a1"},
	}
	for _, tc := range cases {
		must.EqOp(t, tc.want, tc.w.String())
	}
}
