package jobspec

import (
	"testing"

	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/structs"
)

// TestParseParameterized: the job's meta block (values as strings) and
// parameterized block, in HCL and in API JSON alike; an absent payload is
// optional.
func TestParseParameterized(t *testing.T) {
	hcl := jobSrc(`type = "batch"`,
		`meta {`, `  out = "/tmp/out"`, `  retries = 3`, `  verbose = true`, `}`,
		`parameterized {`, `  meta_required = ["runner", "shard"]`, `  meta_optional = ["out"]`, `}`,
		`group "g" {`, `  task "t" { driver = "raw_exec" }`, `}`)
	job, warns := mustParseHCL(t, hcl)
	must.SliceEmpty(t, warns)
	must.Eq(t, map[string]string{"out": "/tmp/out", "retries": "3", "verbose": "true"}, job.Meta)
	must.Eq(t, &structs.ParameterizedJobConfig{Payload: structs.DispatchPayloadOptional,
		MetaRequired: []string{"runner", "shard"}, MetaOptional: []string{"out"}}, job.ParameterizedJob)

	js := `{"Job": {"ID": "j", "Type": "batch", "Meta": {"out": "/tmp/out", "retries": "3", "verbose": "true"},
	  "ParameterizedJob": {"MetaRequired": ["runner", "shard"], "MetaOptional": ["out"]},
	  "TaskGroups": [{"Name": "g", "Tasks": [{"Name": "t", "Driver": "raw_exec"}]}]}}`
	fromJSON, _, err := ParseJSON("job.json", []byte(js))
	must.NoError(t, err)
	must.Eq(t, job, fromJSON)
}

// TestParseParameterizedErrors: a bad payload value, a list that is not
// of strings, a block inside meta, a second parameterized block.
func TestParseParameterizedErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"payload", jobSrc(`parameterized {`, `  payload = "sometimes"`, `}`),
			`job.hcl:3,15-26: Invalid value; The argument "payload" must be one of "optional", "required" or "forbidden"; got "sometimes".`},
		{"meta_required", jobSrc(`parameterized {`, `  meta_required = "shard"`, `}`),
			`job.hcl:3,21-28: Incorrect attribute value type; Inappropriate value for argument "meta_required": list of string required, but have string.`},
		{"meta block", jobSrc(`meta {`, `  nested {}`, `}`),
			`job.hcl:3,5-11: Unsupported block type; Blocks of type "nested" are not expected in the meta block of job "j".`},
		{"two parameterized", jobSrc(`parameterized {}`, `parameterized {}`),
			`job.hcl:3,3-16: Duplicate parameterized block; Only one parameterized block is allowed in job "j"; the first one is at job.hcl:2,3-16.`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ParseHCL("job.hcl", []byte(tc.src))
			must.EqError(t, err, tc.want)
		})
	}
}
