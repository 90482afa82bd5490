package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/faults"
)

// Scenario is one simulated run's input.
type Scenario struct {
	// Name identifies the scenario in reports.
	Name string `json:"Name"`
	// Seed is the run seed: every choice the world makes comes from it.
	Seed uint64 `json:"Seed"`
	// Start is the virtual clock's initial instant.
	Start time.Time `json:"Start"`
	// Duration is how long the run lasts.
	Duration Duration `json:"Duration"`
	// LocalZone is the client's local zone (SCHED-4); empty means UTC.
	LocalZone string `json:"LocalZone,omitempty"`
	// Profile is the schedule profile, "ent" (empty) or "ce" (SCOPE-2).
	Profile string `json:"Profile,omitempty"`
	// Jobs are registered at their offsets, in order.
	Jobs []JobAt `json:"Jobs"`
	// Calls are made at their offsets, in order.
	Calls []Call `json:"Calls,omitempty"`
	// Faults is the fault plan, crash points included.
	Faults faults.Plan `json:"Faults,omitempty"`
	// HookLatency, if set, gives the world's alloc dir ports virtual
	// latency and traces every port call and hook metric emission
	// (TELEM-3, TELEM-4); nil is none (and traces nothing more).
	HookLatency *HookLatency `json:"HookLatency,omitempty"`
	// Features are the generator features a generated scenario was drawn
	// with (swarm.go); informational, empty for a written scenario.
	Features []string `json:"Features,omitempty"`
	// DisableAllocationHookMetrics is the client's TELEM-5 switch.
	DisableAllocationHookMetrics bool `json:"DisableAllocationHookMetrics,omitempty"`
	// NodeClass is the client node's class (TELEM-2's node_class label);
	// empty is none.
	NodeClass string `json:"NodeClass,omitempty"`
}

// HookLatency is the virtual time the world's ports take per call.
type HookLatency struct {
	// AllocDirBuild is the latency of every AllocDir.Build (the alloc_dir
	// prerun hook).
	AllocDirBuild Duration `json:"AllocDirBuild,omitempty"`
	// TaskDirBuild is the latency of every TaskDir.Build (the task_dir
	// prestart hook).
	TaskDirBuild Duration `json:"TaskDirBuild,omitempty"`
}

// JobAt registers Job at offset At.
type JobAt struct {
	At  Duration     `json:"At"`
	Job *structs.Job `json:"Job"`
}

// Op is an API call's operation (see the package doc).
type Op string

// API call operations.
const (
	OpPause          Op = "pause"
	OpRun            Op = "run"
	OpResume         Op = "resume"
	OpGetPause       Op = "get_pause"
	OpSignal         Op = "signal"
	OpStopJob        Op = "stop_job"
	OpEvictAlloc     Op = "evict_alloc"
	OpUpdateSchedule Op = "update_schedule"
	OpRestart        Op = "restart"
	OpGCAlloc        Op = "gc_alloc"
)

// Ops lists every operation.
func Ops() []Op { return append(swarmOps(), OpRestart, OpGCAlloc) }

// swarmOps are the operations the generator draws (swarm.go). Restart
// (AR-1's RestartTask and RestartRunning) and gc_alloc are not among
// them: the properties that need them draw them themselves, so that the
// generated scenarios every other property reads stay as they were.
func swarmOps() []Op {
	return []Op{OpPause, OpRun, OpResume, OpGetPause, OpSignal, OpStopJob, OpEvictAlloc, OpUpdateSchedule}
}

// ScheduleState is the pause state an op requests (API-2's mapping), or
// "" for ops that set none.
func (o Op) ScheduleState() structs.TaskScheduleState {
	switch o {
	case OpPause:
		return structs.TaskScheduleStateForcePause
	case OpRun:
		return structs.TaskScheduleStateForceRun
	case OpResume:
		return structs.TaskScheduleStateScheduleResume
	}
	return ""
}

// Call is one API call at offset At.
type Call struct {
	At Duration `json:"At"`
	Op Op       `json:"Op"`
	// Alloc names the alloc ("<job>.<group>[<i>]") of pause, run, resume,
	// get_pause, signal, evict_alloc, restart and gc_alloc.
	Alloc string `json:"Alloc,omitempty"`
	// Job names the job of stop_job and update_schedule.
	Job string `json:"Job,omitempty"`
	// Task is the task of the call (signal: empty means every task;
	// restart: empty means every running task).
	Task string `json:"Task,omitempty"`
	// Signal is the signal of signal.
	Signal string `json:"Signal,omitempty"`
	// Schedule is update_schedule's new schedule for Task (nil removes it).
	Schedule *schedule.Schedule `json:"Schedule,omitempty"`
}

// End is the instant the run ends.
func (s Scenario) End() time.Time { return s.Start.Add(s.Duration.D()) }

// Shape summarises the scenario for fault classes (Class.Applies).
func (s Scenario) Shape() faults.Shape {
	sh := faults.Shape{Duration: s.Duration.D(), Crashes: len(s.Faults.Of(faults.ClientCrash)) + len(s.Faults.Of(faults.ClientRestart))}
	for _, j := range s.Jobs {
		if j.Job == nil {
			continue
		}
		for _, tg := range j.Job.TaskGroups {
			if tg == nil {
				continue
			}
			sh.Tasks += tg.Count * len(tg.Tasks)
			for _, t := range tg.Tasks {
				for _, m := range t.VolumeMounts {
					if v := tg.Volumes[m.Volume]; v != nil && v.Type == structs.VolumeTypeCSI {
						sh.CSIVolumes += tg.Count
					}
				}
			}
		}
	}
	return sh
}

// Job returns the last registration of job id, or nil.
func (s Scenario) Job(id string) *structs.Job {
	var out *structs.Job
	for _, j := range s.Jobs {
		if j.Job != nil && j.Job.ID == id {
			out = j.Job
		}
	}
	return out
}

// Validate reports what would make the scenario unrunnable: no positive
// duration, a job without ID or groups, a call of an unknown op or job,
// and a fault plan that does not fit (faults.Plan.Validate).
func (s Scenario) Validate() error {
	var errs []error
	if s.Duration <= 0 {
		errs = append(errs, fmt.Errorf("scenario %q: duration must be positive", s.Name))
	}
	if s.Start.IsZero() {
		errs = append(errs, fmt.Errorf("scenario %q: no start instant", s.Name))
	}
	if s.Profile != "" && s.Profile != string(schedule.ProfileEnt) && s.Profile != string(schedule.ProfileCE) {
		errs = append(errs, fmt.Errorf("scenario %q: unknown profile %q", s.Name, s.Profile))
	}
	if s.LocalZone != "" {
		if _, err := schedule.Location(s.LocalZone); err != nil {
			errs = append(errs, fmt.Errorf("scenario %q: local zone: %w", s.Name, err))
		}
	}
	for i, j := range s.Jobs {
		if j.Job == nil || j.Job.ID == "" || len(j.Job.TaskGroups) == 0 {
			errs = append(errs, fmt.Errorf("scenario %q: job %d has no ID or no groups", s.Name, i))
		}
	}
	for i, c := range s.Calls {
		if err := s.validateCall(c); err != nil {
			errs = append(errs, fmt.Errorf("scenario %q: call %d (%s): %w", s.Name, i, c.Op, err))
		}
	}
	if err := s.Faults.Validate(s.Shape()); err != nil {
		errs = append(errs, fmt.Errorf("scenario %q: %w", s.Name, err))
	}
	if l := s.HookLatency; l != nil && (l.AllocDirBuild < 0 || l.TaskDirBuild < 0) {
		errs = append(errs, fmt.Errorf("scenario %q: negative hook latency", s.Name))
	}
	return errors.Join(errs...)
}

func (s Scenario) validateCall(c Call) error {
	switch c.Op {
	case OpPause, OpRun, OpResume, OpGetPause, OpSignal, OpEvictAlloc, OpRestart, OpGCAlloc:
		if c.Alloc == "" {
			return errors.New("no alloc name")
		}
		if c.Op == OpSignal && c.Signal == "" {
			return errors.New("no signal")
		}
	case OpStopJob, OpUpdateSchedule:
		if s.Job(c.Job) == nil {
			return fmt.Errorf("unknown job %q", c.Job)
		}
		if c.Op == OpUpdateSchedule && c.Task == "" {
			return errors.New("no task")
		}
	default:
		return fmt.Errorf("unknown op %q", c.Op)
	}
	return nil
}

// Decode reads a scenario in JSON and validates it.
func Decode(r io.Reader) (Scenario, error) {
	var s Scenario
	dec := json.NewDecoder(r)
	if err := dec.Decode(&s); err != nil {
		return Scenario{}, fmt.Errorf("decode scenario: %w", err)
	}
	for _, j := range s.Jobs {
		j.Job.Canonicalize()
	}
	if err := s.Validate(); err != nil {
		return Scenario{}, err
	}
	return s, nil
}

// Load reads and validates a scenario fixture.
func Load(path string) (Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return Scenario{}, fmt.Errorf("load scenario: %w", err)
	}
	defer f.Close()
	s, err := Decode(f)
	if err != nil {
		return Scenario{}, fmt.Errorf("load scenario %s: %w", path, err)
	}
	return s, nil
}

// Encode writes the scenario as indented JSON.
func (s Scenario) Encode(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return fmt.Errorf("encode scenario %q: %w", s.Name, err)
	}
	return nil
}
