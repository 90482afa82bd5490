package server

import (
	"testing"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

func parameterized(payload string) *structs.Job {
	j := &structs.Job{ID: "sweep", Type: structs.JobTypeBatch, Meta: map[string]string{"out": "/o"},
		ParameterizedJob: &structs.ParameterizedJobConfig{Payload: payload, MetaRequired: []string{"shard", "runner"}, MetaOptional: []string{"out"}},
		TaskGroups:       []*structs.TaskGroup{{Name: "g", Count: 1, Tasks: []*structs.Task{{Name: "t", Driver: "mock_driver"}}}}}
	j.Canonicalize()
	return j
}

// TestValidateDispatch: the checks in order, one message each.
func TestValidateDispatch(t *testing.T) {
	ok := map[string]string{"shard": "1", "runner": "reference"}
	cases := []struct {
		name    string
		job     *structs.Job
		meta    map[string]string
		payload []byte
		want    string
	}{
		{"ok", parameterized(""), ok, nil, ""},
		{"ok optional meta", parameterized(""), map[string]string{"shard": "1", "runner": "r", "out": "x"}, []byte("p"), ""},
		{"not parameterized", &structs.Job{ID: "web"}, ok, nil, `Specified job "web" is not a parameterized job`},
		{"dispatched child", func() *structs.Job { j := parameterized(""); j.Dispatched = true; return j }(), ok, nil,
			`Specified job "sweep" is not a parameterized job`},
		{"payload forbidden", parameterized(structs.DispatchPayloadForbidden), ok, []byte("x"), "Payload is not permitted"},
		{"payload required", parameterized(structs.DispatchPayloadRequired), ok, nil, "Payload is not provided but required by parameterized job"},
		{"payload too large", parameterized(""), ok, make([]byte, dispatchPayloadLimit+1), "Payload exceeds maximum size; 16385 > 16384"},
		{"missing meta sorted", parameterized(""), map[string]string{}, nil, "Dispatch did not provide required meta keys: [runner shard]"},
		{"unpermitted meta sorted", parameterized(""), map[string]string{"shard": "1", "runner": "r", "z": "", "a": ""}, nil,
			"Dispatch included unpermitted metadata keys: [a z]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := validateDispatch(tc.job, tc.meta, tc.payload)
			if tc.want == "" {
				must.NoError(t, err)
				return
			}
			must.EqError(t, err, tc.want)
		})
	}
}

// TestDispatch: the child is a copy with the new identity and the meta
// merged over the parent's; the parent is untouched.
func TestDispatch(t *testing.T) {
	p := parameterized("")
	id := "sweep/dispatch-1718355600-0a1b2c3d"
	c := dispatched(p, id, map[string]string{"shard": "2", "out": "/x"})
	must.EqOp(t, id, c.ID)
	must.EqOp(t, id, c.Name)
	must.EqOp(t, "sweep", c.ParentID)
	must.True(t, c.Dispatched)
	must.False(t, c.IsParameterized())
	must.True(t, p.IsParameterized())
	must.Eq(t, map[string]string{"shard": "2", "out": "/x"}, c.Meta)
	must.Eq(t, map[string]string{"out": "/o"}, p.Meta)
	must.NotEq(t, p.ParameterizedJob, nil)
	c.ParameterizedJob.MetaRequired[0] = "changed"
	must.EqOp(t, "shard", p.ParameterizedJob.MetaRequired[0], must.Sprint("a deep copy"))
}
