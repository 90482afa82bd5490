package apiconv

import (
	"testing"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestConfigDeepCopy: task configs built in code (not from JSON) may hold
// []string and []map[string]any; they are copied, nil kept nil.
func TestConfigDeepCopy(t *testing.T) {
	in := map[string]any{
		"args":    []string{"a", "b"},
		"mounts":  []map[string]any{{"target": "/x"}, nil},
		"nilargs": []string(nil),
		"nilmaps": []map[string]any(nil),
		"nilany":  []any(nil),
		"nilmap":  map[string]any(nil),
		"n":       3,
	}
	task := &structs.Task{Name: "t", Config: in}
	out := taskFromAPI(taskToAPI(task)).Config
	must.Eq(t, in, out)
	out["args"].([]string)[0] = "changed"
	out["mounts"].([]map[string]any)[0]["target"] = "changed"
	must.EqOp(t, "a", in["args"].([]string)[0])
	must.EqOp(t, "/x", in["mounts"].([]map[string]any)[0]["target"])
	must.Nil(t, out["nilargs"].([]string))
	must.Nil(t, out["nilmaps"].([]map[string]any))
	must.Nil(t, out["nilany"].([]any))
	must.Nil(t, out["nilmap"].(map[string]any))
}
