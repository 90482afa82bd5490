package sim

import (
	"bytes"
	"testing"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
)

// referenceFactory is the reference runner under test.
func referenceFactory() interfaces.Factory { return reference.Factory }

// minimalFactory is the minimal runner on the reference client.
func minimalFactory() interfaces.Factory { return reference.Minimal }

var start = time.Date(2024, 6, 14, 8, 55, 0, 0, time.UTC)

// simpleJob is a service job of one group of count tasks of the mock
// driver, each with cfg.
func simpleJob(id string, count int, cfg map[string]any) *structs.Job {
	j := &structs.Job{ID: id, Name: id, TaskGroups: []*structs.TaskGroup{{
		Name: "g1", Count: count,
		Tasks: []*structs.Task{{Name: "t1", Driver: "mock_driver", Config: cfg}},
	}}}
	j.Canonicalize()
	return j
}

func simpleScenario(plan faults.Plan, jobs ...*structs.Job) scenario.Scenario {
	s := scenario.Scenario{Name: "simple", Seed: 7, Start: start, Duration: scenario.Duration(2 * time.Minute), Faults: plan}
	for _, j := range jobs {
		s.Jobs = append(s.Jobs, scenario.JobAt{Job: j})
	}
	return s
}

func traceBytes(t *testing.T, w *World) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := w.Trace().WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
