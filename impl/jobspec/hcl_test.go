package jobspec

import (
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
