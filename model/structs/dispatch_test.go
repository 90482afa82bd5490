package structs

import (
	"strings"
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/shoenig/test/must"
)

func parameterized(payload string) *Job {
	j := &Job{ID: "sweep", Type: JobTypeBatch, Meta: map[string]string{"out": "/o"},
		ParameterizedJob: &ParameterizedJobConfig{Payload: payload, MetaRequired: []string{"shard", "runner"}, MetaOptional: []string{"out"}},
		TaskGroups:       []*TaskGroup{{Name: "g", Count: 1, Tasks: []*Task{{Name: "t", Driver: "mock_driver"}}}}}
	j.Canonicalize()
	return j
}

// TestValidateDispatch: the checks in order, one message each.
func TestValidateDispatch(t *testing.T) {
	ok := map[string]string{"shard": "1", "runner": "reference"}
	cases := []struct {
		name    string
		job     *Job
		meta    map[string]string
		payload []byte
		want    string
	}{
		{"ok", parameterized(""), ok, nil, ""},
		{"ok optional meta", parameterized(""), map[string]string{"shard": "1", "runner": "r", "out": "x"}, []byte("p"), ""},
		{"not parameterized", &Job{ID: "web"}, ok, nil, `Specified job "web" is not a parameterized job`},
		{"dispatched child", func() *Job { j := parameterized(""); j.Dispatched = true; return j }(), ok, nil,
			`Specified job "sweep" is not a parameterized job`},
		{"payload forbidden", parameterized(DispatchPayloadForbidden), ok, []byte("x"), MsgPayloadForbidden},
		{"payload required", parameterized(DispatchPayloadRequired), ok, nil, MsgPayloadRequired},
		{"payload too large", parameterized(""), ok, make([]byte, DispatchPayloadSizeLimit+1), "Payload exceeds maximum size; 16385 > 16384"},
		{"missing meta sorted", parameterized(""), map[string]string{}, nil, "Dispatch did not provide required meta keys: [runner shard]"},
		{"unpermitted meta sorted", parameterized(""), map[string]string{"shard": "1", "runner": "r", "z": "", "a": ""}, nil,
			"Dispatch included unpermitted metadata keys: [a z]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.job.ValidateDispatch(tc.meta, tc.payload)
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
	id := DispatchedID("sweep", time.Unix(1718355600, 0), "0a1b2c3d")
	must.EqOp(t, "sweep/dispatch-1718355600-0a1b2c3d", id)
	c := p.Dispatch(id, map[string]string{"shard": "2", "out": "/x"})
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

// TestValidateParameterized: admission refuses a parameterized service
// job and an unknown payload requirement; Canonicalize fills optional.
func TestValidateParameterized(t *testing.T) {
	j := parameterized("")
	must.EqOp(t, DispatchPayloadOptional, j.ParameterizedJob.Payload)
	must.NoError(t, j.Validate(schedule.ProfileEnt))
	j.Type, j.ParameterizedJob.Payload = JobTypeService, "sometimes"
	err := j.Validate(schedule.ProfileEnt)
	must.EqError(t, err, MsgParameterizedType+"\n"+`Unknown payload requirement: "sometimes"`)
}

// TestMetaEnv: each key as written and upper-cased, unsafe characters
// replaced, the key as written winning a collision with an upper-cased one.
func TestMetaEnv(t *testing.T) {
	must.Nil(t, MetaEnv(nil))
	env := MetaEnv(map[string]string{"shard": "1", "my-key": "v", "a.b": "dot", "OUT": "big", "out": "small"})
	must.Eq(t, map[string]string{
		"NOMAD_META_shard": "1", "NOMAD_META_SHARD": "1",
		"NOMAD_META_my_key": "v", "NOMAD_META_MY_KEY": "v",
		"NOMAD_META_a.b": "dot", "NOMAD_META_A.B": "dot",
		"NOMAD_META_OUT": "big", "NOMAD_META_out": "small",
	}, env)
	for k := range env {
		must.True(t, strings.HasPrefix(k, MetaEnvPrefix))
	}
}
