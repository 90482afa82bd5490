package jobspec

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shoenig/test/must"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
)

// DATA-2: job label, name, namespace, type and their defaults.
func TestParseHCLJob(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want structs.Job
	}{
		{"defaults", jobSrc(), structs.Job{ID: "j", Name: "j", Namespace: "default", Type: "service"}},
		{"name", jobSrc(`name = "Jay"`), structs.Job{ID: "j", Name: "Jay", Namespace: "default", Type: "service"}},
		{"null name keeps the ID", jobSrc(`name = null`), structs.Job{ID: "j", Name: "j", Namespace: "default", Type: "service"}},
		{"namespace", jobSrc(`namespace = "prod"`), structs.Job{ID: "j", Name: "j", Namespace: "prod", Type: "service"}},
		{"batch", jobSrc(`type = "batch"`), structs.Job{ID: "j", Name: "j", Namespace: "default", Type: "batch"}},
		{"system", jobSrc(`type = "system"`), structs.Job{ID: "j", Name: "j", Namespace: "default", Type: "system"}},
		{"sysbatch", jobSrc(`type = "sysbatch"`), structs.Job{ID: "j", Name: "j", Namespace: "default", Type: "sysbatch"}},
		{"comments and heredoc", "# c\njob \"j\" {\n  // c\n  name = <<EOT\nmulti\nEOT\n}\n",
			structs.Job{ID: "j", Name: "multi\n", Namespace: "default", Type: "service"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			job, warns := mustParseHCL(t, tc.src)
			must.SliceEmpty(t, warns)
			if diff := cmp.Diff(&tc.want, job); diff != "" {
				t.Fatalf("ParseHCL (-want +got):\n%s", diff)
			}
		})
	}
}

// DATA-3: group count, restart policy (with job-type defaults), volumes.
func TestParseHCLGroup(t *testing.T) {
	task := `task "t" { driver = "mock_driver" }`
	cases := []struct {
		name    string
		jobType string
		lines   []string
		want    structs.TaskGroup
	}{
		{"defaults service", "service", []string{task},
			structs.TaskGroup{Count: 1, RestartPolicy: policy(2, 30*time.Minute, 15*time.Second, "fail")}},
		{"defaults batch", "batch", []string{task},
			structs.TaskGroup{Count: 1, RestartPolicy: policy(3, 24*time.Hour, 15*time.Second, "fail")}},
		{"count", "service", []string{"count = 3", task},
			structs.TaskGroup{Count: 3, RestartPolicy: policy(2, 30*time.Minute, 15*time.Second, "fail")}},
		{"count zero", "service", []string{"count = 0", task},
			structs.TaskGroup{Count: 0, RestartPolicy: policy(2, 30*time.Minute, 15*time.Second, "fail")}},
		{"count from string", "service", []string{`count = "4"`, task},
			structs.TaskGroup{Count: 4, RestartPolicy: policy(2, 30*time.Minute, 15*time.Second, "fail")}},
		{"full restart", "service", []string{
			"restart {", `  attempts = 5`, `  interval = "1h"`, `  delay = "1m30s"`, `  mode = "delay"`, "}", task},
			structs.TaskGroup{Count: 1, RestartPolicy: policy(5, time.Hour, 90*time.Second, "delay")}},
		{"partial restart takes batch defaults", "batch", []string{"restart {", "  attempts = 0", "}", task},
			structs.TaskGroup{Count: 1, RestartPolicy: policy(0, 24*time.Hour, 15*time.Second, "fail")}},
		{"restart values are not validated here", "service", []string{
			"restart {", `  mode = "sometimes"`, `  interval = "1s"`, "}", task},
			structs.TaskGroup{Count: 1, RestartPolicy: policy(2, time.Second, 15*time.Second, "sometimes")}},
		{"empty restart", "service", []string{"restart {}", task},
			structs.TaskGroup{Count: 1, RestartPolicy: policy(2, 30*time.Minute, 15*time.Second, "fail")}},
		{"volumes", "service", []string{
			`volume "data" {`, `  type = "csi"`, `  source = "vol-1"`, `  read_only = true`, "}",
			`volume "certs" {`, `  type = "host"`, `  source = "ca"`, "}",
			`volume "plain" {`, `  source = "p"`, "}",
			task},
			structs.TaskGroup{Count: 1, RestartPolicy: policy(2, 30*time.Minute, 15*time.Second, "fail"),
				Volumes: map[string]*structs.VolumeRequest{
					"data":  {Name: "data", Type: "csi", Source: "vol-1", ReadOnly: true},
					"certs": {Name: "certs", Type: "host", Source: "ca"},
					"plain": {Name: "plain", Source: "p"},
				}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := "job \"j\" {\n  type = \"" + tc.jobType + "\"\n" + groupSrc(tc.lines...)[len("job \"j\" {\n"):]
			job, _ := mustParseHCL(t, src)
			must.SliceLen(t, 1, job.TaskGroups)
			want := tc.want
			want.Name = "g"
			want.Tasks = []*structs.Task{mainTask(nil)}
			if diff := cmp.Diff(&want, job.TaskGroups[0]); diff != "" {
				t.Fatalf("ParseHCL group (-want +got):\n%s", diff)
			}
		})
	}
}

// DATA-4: every task argument and block.
func TestParseHCLTask(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  *structs.Task
	}{
		{"defaults", nil, mainTask(nil)},
		{"leader", []string{"leader = true"}, mainTask(func(t *structs.Task) { t.Leader = true })},
		{"leader from string", []string{`leader = "true"`}, mainTask(func(t *structs.Task) { t.Leader = true })},
		{"kill_timeout", []string{`kill_timeout = "1m30s"`}, mainTask(func(t *structs.Task) { t.KillTimeout = 90 * time.Second })},
		{"kill_signal", []string{`kill_signal = "SIGTERM"`}, mainTask(func(t *structs.Task) { t.KillSignal = "SIGTERM" })},
		{"prestart", []string{"lifecycle {", `  hook = "prestart"`, "}"},
			mainTask(func(t *structs.Task) { t.Lifecycle = &structs.TaskLifecycle{Hook: "prestart"} })},
		{"poststart sidecar", []string{"lifecycle {", `  hook = "poststart"`, "  sidecar = true", "}"},
			mainTask(func(t *structs.Task) { t.Lifecycle = &structs.TaskLifecycle{Hook: "poststart", Sidecar: true} })},
		{"poststop", []string{"lifecycle {", `  hook = "poststop"`, "}"},
			mainTask(func(t *structs.Task) { t.Lifecycle = &structs.TaskLifecycle{Hook: "poststop"} })},
		{"schedule", []string{"schedule {", "  cron {", `    start = "30 21 * * * *"`, `    end = "15 3"`,
			`    timezone = "Europe/Berlin"`, "  }", "}"},
			mainTask(func(t *structs.Task) {
				t.Schedule = &schedule.Schedule{Cron: &schedule.Cron{Start: "30 21 * * * *", End: "15 3", Timezone: "Europe/Berlin"}}
			})},
		{"schedule without timezone", []string{"schedule {", "  cron {", `    start = "0 9 * * * *"`, `    end = "0 17"`, "  }", "}"},
			mainTask(func(t *structs.Task) {
				t.Schedule = &schedule.Schedule{Cron: &schedule.Cron{Start: "0 9 * * * *", End: "0 17"}}
			})},
		// SCHED-1: a schedule without cron counts as set; SCHED-2 rejects it
		// at registration, so the parser keeps it.
		{"schedule without cron", []string{"schedule {}"},
			mainTask(func(t *structs.Task) { t.Schedule = &schedule.Schedule{} })},
		{"empty cron", []string{"schedule {", "  cron {}", "}"},
			mainTask(func(t *structs.Task) { t.Schedule = &schedule.Schedule{Cron: &schedule.Cron{}} })},
		{"empty config", []string{"config {}"}, mainTask(func(t *structs.Task) { t.Config = map[string]any{} })},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			job, _ := mustParseHCL(t, taskSrc(tc.lines...))
			if diff := cmp.Diff(tc.want, onlyTask(t, job)); diff != "" {
				t.Fatalf("ParseHCL task (-want +got):\n%s", diff)
			}
		})
	}
}

// DATA-4: volume_mount against group volumes.
func TestParseHCLVolumeMount(t *testing.T) {
	job, _ := mustParseHCL(t, groupSrc(
		`volume "data" {`, `  type = "csi"`, `  source = "v"`, "}",
		`task "t" {`,
		`  driver = "mock_driver"`,
		`  volume_mount {`, `    volume = "data"`, `    destination = "/srv"`, `  }`,
		`  volume_mount {`, `    volume = "data"`, `    destination = "/ro"`, `    read_only = true`, `  }`,
		`}`))
	want := []*structs.VolumeMount{
		{Volume: "data", Destination: "/srv"},
		{Volume: "data", Destination: "/ro", ReadOnly: true},
	}
	if diff := cmp.Diff(want, onlyTask(t, job).VolumeMounts); diff != "" {
		t.Fatalf("VolumeMounts (-want +got):\n%s", diff)
	}
}

// Groups and tasks keep source order.
func TestParseHCLOrder(t *testing.T) {
	job, _ := mustParseHCL(t, jobSrc(
		`group "b" {`, `  task "z" { driver = "d" }`, `  task "a" { driver = "d" }`, `}`,
		`group "a" {`, `  task "m" { driver = "d" }`, `}`))
	var got []string
	for _, tg := range job.TaskGroups {
		for _, task := range tg.Tasks {
			got = append(got, tg.Name+"/"+task.Name)
		}
	}
	must.Eq(t, []string{"b/z", "b/a", "a/m"}, got)
}

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

// Documented Nomad constructs outside the subset are accepted, their
// content unchecked, and reported as warnings in source order.
func TestParseHCLWarnings(t *testing.T) {
	task := `task "t" { driver = "d" }`
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"none", taskSrc(), nil},
		{"job", jobSrc(`datacenters = ["dc1"]`, "priority = 70", "periodic {", `  crons = ["@daily"]`, "}", "ui {}"),
			[]string{
				`job.hcl:2,3-14: argument "datacenters" in job "j" is ignored: allocsim does not model it`,
				`job.hcl:3,3-11: argument "priority" in job "j" is ignored: allocsim does not model it`,
				`job.hcl:4,3-11: block "periodic" in job "j" is ignored: allocsim does not model it`,
				`job.hcl:7,3-5: block "ui" in job "j" is ignored: allocsim does not model it`,
			}},
		{"group", groupSrc(`shutdown_delay = "5s"`, "network {", `  port "http" { to = 80 }`, "}", task),
			[]string{
				`job.hcl:3,5-19: argument "shutdown_delay" in group "g" is ignored: allocsim does not model it`,
				`job.hcl:4,5-12: block "network" in group "g" is ignored: allocsim does not model it`,
			}},
		{"restart", groupSrc("restart {", "  render_templates = true", "}", task),
			[]string{`job.hcl:4,7-23: argument "render_templates" in the restart block of group "g" is ignored: allocsim does not model it`}},
		{"volume", groupSrc(`volume "v" {`, `  source = "s"`, `  per_alloc = true`, `  mount_options {`, `    fs_type = "ext4"`, `  }`, `}`, task),
			[]string{
				`job.hcl:5,7-16: argument "per_alloc" in volume "v" is ignored: allocsim does not model it`,
				`job.hcl:6,7-20: block "mount_options" in volume "v" is ignored: allocsim does not model it`,
			}},
		{"task", taskSrc(`user = "nobody"`, "resources {", "  cpu = 100", "  anything_goes = true", "}", "template {}", "template {}"),
			[]string{
				`job.hcl:5,7-11: argument "user" in task "t" is ignored: allocsim does not model it`,
				`job.hcl:6,7-16: block "resources" in task "t" is ignored: allocsim does not model it`,
				`job.hcl:10,7-15: block "template" in task "t" is ignored: allocsim does not model it`,
				`job.hcl:11,7-15: block "template" in task "t" is ignored: allocsim does not model it`,
			}},
		{"volume_mount", groupSrc(`volume "v" { source = "s" }`, `task "t" {`, `  driver = "d"`,
			`  volume_mount {`, `    volume = "v"`, `    propagation_mode = "private"`, `  }`, `}`),
			[]string{`job.hcl:8,9-25: argument "propagation_mode" in a volume_mount block of task "t" is ignored: allocsim does not model it`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, warns := mustParseHCL(t, tc.src)
			var got []string
			for _, w := range warns {
				got = append(got, w.String())
			}
			must.Eq(t, tc.want, got)
		})
	}
}

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
