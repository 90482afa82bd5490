package jobspec

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"
)

// Config values come out as encoding/json would decode the same JSON.
func TestParseHCLConfig(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  map[string]any
	}{
		{"string", []string{`image = "redis:7"`}, map[string]any{"image": "redis:7"}},
		{"integer is float64", []string{"port = 6379"}, map[string]any{"port": float64(6379)}},
		{"fraction", []string{"ratio = 0.25"}, map[string]any{"ratio": 0.25}},
		{"negative and exponent", []string{"n = -1.5e3"}, map[string]any{"n": -1500.0}},
		{"arithmetic", []string{"n = 2 * 30"}, map[string]any{"n": float64(60)}},
		{"bool", []string{"privileged = true"}, map[string]any{"privileged": true}},
		{"null", []string{"x = null"}, map[string]any{"x": nil}},
		{"list", []string{`args = ["-c", 1, false]`}, map[string]any{"args": []any{"-c", float64(1), false}}},
		{"empty list", []string{"args = []"}, map[string]any{"args": []any{}}},
		{"map", []string{`labels = { app = "web", "tier" = 2 }`},
			map[string]any{"labels": map[string]any{"app": "web", "tier": float64(2)}}},
		{"nested", []string{`m = { list = [{ a = [1] }] }`},
			map[string]any{"m": map[string]any{"list": []any{map[string]any{"a": []any{float64(1)}}}}}},
		{"for expression", []string{`l = [for s in ["a", "b"] : "x-${s}"]`}, map[string]any{"l": []any{"x-a", "x-b"}}},
		{"indented heredoc", []string{"script = <<-EOF", "  echo hi", "EOF"}, map[string]any{"script": "echo hi\n"}},
		{"runtime interpolation kept", []string{`cmd = "${NOMAD_TASK_DIR}/run.sh"`},
			map[string]any{"cmd": "${NOMAD_TASK_DIR}/run.sh"}},
		{"bare runtime reference kept", []string{`id = "${node.unique.id}"`}, map[string]any{"id": "${node.unique.id}"}},
		{"indexed reference kept", []string{`v = "a-${meta["k"]}-b"`}, map[string]any{"v": `a-${meta["k"]}-b`}},
		{"reference in list and map", []string{`l = ["${NOMAD_ALLOC_ID}", { k = "${attr.os}" }]`},
			map[string]any{"l": []any{"${NOMAD_ALLOC_ID}", map[string]any{"k": "${attr.os}"}}}},
		{"escaped interpolation", []string{`s = "$${literal}"`}, map[string]any{"s": "${literal}"}},
		{"constant interpolation", []string{`s = "n=${1 + 1}"`}, map[string]any{"s": "n=2"}},
		{"block becomes a list of objects", []string{"logging {", `  type = "json-file"`, "  config {", `    max = "10m"`, "  }", "}"},
			map[string]any{"logging": []any{map[string]any{
				"type": "json-file", "config": []any{map[string]any{"max": "10m"}}}}}},
		{"repeated blocks append", []string{"mount {", `  src = "a"`, "}", "mount {", `  src = "b"`, "}"},
			map[string]any{"mount": []any{map[string]any{"src": "a"}, map[string]any{"src": "b"}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lines := append([]string{"config {"}, tc.lines...)
			lines = append(lines, "}")
			job, _ := mustParseHCL(t, taskSrc(lines...))
			got := onlyTask(t, job).Config
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("Config (-want +got):\n%s", diff)
			}
			// DATA-1: the same value survives a JSON round trip unchanged.
			raw, err := json.Marshal(got)
			must.NoError(t, err)
			var back map[string]any
			must.NoError(t, json.Unmarshal(raw, &back))
			if diff := cmp.Diff(got, back); diff != "" {
				t.Fatalf("Config JSON round trip (-hcl +json):\n%s", diff)
			}
		})
	}
}
