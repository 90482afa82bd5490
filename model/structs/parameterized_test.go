package structs

import (
	"strings"
	"testing"

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

// TestValidateParameterized: admission refuses a parameterized service
// job and an unknown payload requirement; Canonicalize fills optional.
func TestValidateParameterized(t *testing.T) {
	j := parameterized("")
	must.EqOp(t, DispatchPayloadOptional, j.ParameterizedJob.Payload)
	must.NoError(t, j.Validate(schedule.ProfileEnt))
	j.Type, j.ParameterizedJob.Payload = JobTypeService, "sometimes"
	err := j.Validate(schedule.ProfileEnt)
	must.EqError(t, err, `Parameterized job can only be used with "batch" or "sysbatch" scheduler`+"\n"+`Unknown payload requirement: "sometimes"`)
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
