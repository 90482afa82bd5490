package jobspec

import (
	"testing"

	"github.com/shoenig/test/must"
)

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
