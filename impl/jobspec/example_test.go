package jobspec_test

import (
	"fmt"

	"github.com/allocsim/allocsim/impl/jobspec"
)

func ExampleParse() {
	src := `
job "report" {
  type = "batch"

  group "g" {
    task "build" {
      driver = "mock_driver"
      config {
        run_for = "1h"
      }
      schedule {
        cron {
          start    = "0 9 * * MON-FRI *"
          end      = "0 17"
          timezone = "Europe/Paris"
        }
      }
      resources {
        cpu = 100
      }
    }
  }
}
`
	job, warnings, err := jobspec.Parse("report.nomad.hcl", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	task := job.TaskGroups[0].Tasks[0]
	fmt.Println(job.ID, job.Type, job.Namespace, *job.TaskGroups[0].RestartPolicy.Attempts)
	fmt.Println(task.Name, task.KillTimeout, task.Schedule.Cron.Timezone, task.Config["run_for"])
	for _, w := range warnings {
		fmt.Println(w)
	}

	_, _, err = jobspec.Parse("typo.hcl", []byte(`job "j" { tyep = "batch" }`))
	fmt.Println(err)
	// Output:
	// report batch default 3
	// build 5s Europe/Paris 1h
	// report.nomad.hcl:18,7-16: block "resources" in task "build" is ignored: allocsim does not model it
	// typo.hcl:1,11-15: Unsupported argument; An argument named "tyep" is not expected in job "j". Did you mean "type"?
}
