package status

import (
	"testing"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/structs"
)

func TestClientStatus_AR8(t *testing.T) {
	cases := []struct {
		name     string
		states   states
		wantStat string
		wantDesc string
	}{
		{"no tasks", states{}, "", ""},
		{"nil map", nil, "", ""},
		{"only nil and unknown states", states{"a": nil, "b": {State: "weird"}}, "", ""},
		{"all pending", states{"a": pending(), "b": pending()}, structs.AllocClientStatusPending, DescriptionPending},
		{"PAUSE-8 all paused is pending", states{"a": paused(true), "b": paused(false)}, structs.AllocClientStatusPending, DescriptionPending},
		{"one running", states{"a": running(), "b": pending()}, structs.AllocClientStatusRunning, DescriptionRunning},
		{"running beats complete", states{"a": running(), "b": complete()}, structs.AllocClientStatusRunning, DescriptionRunning},
		{"pending beats complete", states{"a": complete(), "b": pending()}, structs.AllocClientStatusPending, DescriptionPending},
		{"all complete", states{"a": complete(), "b": complete()}, structs.AllocClientStatusComplete, DescriptionComplete},
		{"failed beats running", states{"a": failed(), "b": running()}, structs.AllocClientStatusFailed, DescriptionFailed},
		{"failed beats complete", states{"a": failed(), "b": complete()}, structs.AllocClientStatusFailed, DescriptionFailed},
		{"Failed flag on a live task does not fail the alloc", states{"a": {State: structs.TaskStateRunning, Failed: true}}, structs.AllocClientStatusRunning, DescriptionRunning},
		// Poststop subtleties: every task counts.
		{"poststop waiting while main runs", states{"main": running(), "post": pending()}, structs.AllocClientStatusRunning, DescriptionRunning},
		{"poststop not yet started after main completed", states{"main": complete(), "post": pending()}, structs.AllocClientStatusPending, DescriptionPending},
		{"poststop running after main completed", states{"main": complete(), "post": running()}, structs.AllocClientStatusRunning, DescriptionRunning},
		{"failed poststop fails the alloc", states{"main": complete(), "post": failed()}, structs.AllocClientStatusFailed, DescriptionFailed},
		{"failed main while poststop runs", states{"main": failed(), "post": running()}, structs.AllocClientStatusFailed, DescriptionFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gotStat, gotDesc := ClientStatus(tc.states)
			must.EqOp(t, tc.wantStat, gotStat)
			must.EqOp(t, tc.wantDesc, gotDesc)
		})
	}
}

func TestDescriptions_AR8_Verbatim(t *testing.T) {
	must.EqOp(t, "Failed tasks", DescriptionFailed)
	must.EqOp(t, "Tasks are running", DescriptionRunning)
	must.EqOp(t, "No tasks have started", DescriptionPending)
	must.EqOp(t, "All tasks have completed", DescriptionComplete)
}

func TestMissingFinishedAt_AR8(t *testing.T) {
	st := states{"b": deadUnfinished(), "a": pending(), "c": complete(), "d": nil}
	must.Nil(t, MissingFinishedAt(structs.AllocClientStatusRunning, st))
	must.Nil(t, MissingFinishedAt(structs.AllocClientStatusPending, st))
	for _, terminal := range []string{structs.AllocClientStatusComplete, structs.AllocClientStatusFailed, structs.AllocClientStatusLost} {
		must.Eq(t, []string{"a", "b"}, MissingFinishedAt(terminal, st), must.Sprint(terminal))
	}
	must.Nil(t, MissingFinishedAt(structs.AllocClientStatusComplete, states{"c": complete()}))
}
