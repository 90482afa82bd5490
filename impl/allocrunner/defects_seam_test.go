package allocrunner

import (
	"testing"
	"time"

	"github.com/allocsim/allocsim/model/status"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/shoenig/test/must"
)

// TestPrestartAsSidecars: lifecycle-main-early's view lets the main task
// start once an init task runs, and leaves the group itself alone.
func TestPrestartAsSidecars(t *testing.T) {
	pre := &structs.Task{Name: "pre", Lifecycle: &structs.TaskLifecycle{Hook: structs.TaskLifecycleHookPrestart}}
	main := &structs.Task{Name: "main"}
	tasks := []*structs.Task{pre, main}
	states := map[string]*structs.TaskState{"pre": {State: structs.TaskStateRunning, StartedAt: time.Unix(1, 0)}}
	must.False(t, status.MayStart(main, tasks, states))
	view := prestartAsSidecars(tasks)
	must.True(t, status.MayStart(view[1], view, states))
	must.False(t, pre.Lifecycle.Sidecar)
}
