package structs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/allocsim/allocsim/model/schedule"
)

// Admission messages of the job's structure. SPEC fixes FmtCountNegative
// only by its rule (DATA-3); the others are Nomad's messages for the same
// rules (issue 14, SPEC-NOTES "Admission gaps closed").
const (
	// FmtCountNegative is the admission error of a group with a negative count.
	FmtCountNegative    = "task group %q has a negative count"
	MsgJobIDSpace       = "Job ID contains a space"
	MsgJobIDNull        = "Job ID contains a null character"
	FmtJobTypeInvalid   = "Invalid job type: %q"
	MsgJobNoGroups      = "Missing job task groups"
	FmtGroupNoName      = "Job task group %d missing name"
	FmtGroupRedefined   = "Job task group %d redefines '%s' from group %d"
	FmtSystemGroupCount = "Job task group %s has count %d. Count cannot exceed 1 with system scheduler"
	MsgGroupNoTasks     = "Missing tasks for task group"
	FmtTaskNoName       = "Task %d missing name"
	FmtTaskRedefined    = "Task %d redefines '%s' from task %d"
	MsgTaskNameSlash    = "Task name cannot include slashes"
	MsgTaskNoDriver     = "Missing task driver"
)

// Validate is job admission at registration (API-4, DATA-3, SCHED-1): every
// failure, joined with errors.Join, each joined error exactly one message:
//
//  1. the job: an ID with a space or a null character; a type other than
//     service, batch, system or sysbatch (empty is the default, service);
//     no task group;
//  2. the groups' names, in order: a group without a name, a group named
//     as an earlier one (numbered from 1), a system group counting more
//     than 1;
//  3. per task group, in order: a negative Count; no task; every failure
//     of its restart policy (RestartPolicy.Validate, DATA-3); then per
//     task: no name, a name an earlier task has, a name with a slash (it
//     names the task's directory, ADIR-2), no driver;
//  4. per task of the group with a Schedule (a nil Cron counts as set):
//     under profile ce, `task schedules requires Nomad Enterprise` once per
//     job, at the first scheduled task; under ent, each failing task's first
//     SCHED-2 error;
//  5. for a parameterized job (parameterized.go): a type other than batch or
//     sysbatch, then an unknown payload requirement.
//
// Nil groups and tasks are skipped (they count for nothing); nil means
// admitted. The job's presence and ID are the caller's checks (API-4
// messages). The agent and the simulated server both call this; neither
// restates it.
func (j *Job) Validate(profile schedule.Profile) error {
	errs := j.validateShape()
	ceReported := false
	for _, tg := range j.TaskGroups {
		if tg == nil {
			continue
		}
		errs = append(errs, tg.validateShape()...)
		for _, t := range tg.Tasks {
			if t == nil || !t.IsScheduled() {
				continue
			}
			err := schedule.Validate(t.Schedule, profile)
			if err == nil {
				continue
			}
			if profile == schedule.ProfileCE {
				if ceReported {
					continue
				}
				ceReported = true
			}
			errs = append(errs, err)
		}
	}
	errs = append(errs, j.validateParameterized()...)
	return errors.Join(errs...)
}

// validateShape is steps 1 and 2 of Validate.
func (j *Job) validateShape() []error {
	var errs []error
	switch {
	case strings.Contains(j.ID, " "):
		errs = append(errs, errors.New(MsgJobIDSpace))
	case strings.Contains(j.ID, "\x00"):
		errs = append(errs, errors.New(MsgJobIDNull))
	}
	switch j.Type {
	case "", JobTypeService, JobTypeBatch, JobTypeSystem, JobTypeSysBatch:
	default:
		errs = append(errs, fmt.Errorf(FmtJobTypeInvalid, j.Type))
	}
	groups := numbering{noName: FmtGroupNoName, redefined: FmtGroupRedefined}
	for _, tg := range j.TaskGroups {
		if tg == nil {
			continue
		}
		if err := groups.add(tg.Name); err != nil {
			errs = append(errs, err)
		}
		if j.Type == JobTypeSystem && tg.Count > 1 {
			errs = append(errs, fmt.Errorf(FmtSystemGroupCount, tg.Name, tg.Count))
		}
	}
	if groups.n == 0 {
		errs = append(errs, errors.New(MsgJobNoGroups))
	}
	return errs
}

// numbering numbers a job's groups, or a group's tasks, from 1 as they
// come (nil ones skipped) and reports one without a name or with the name
// of an earlier one (noName and redefined: the message formats, taking the
// number, and the number, name and earlier number).
type numbering struct {
	noName, redefined string
	seen              map[string]int // name -> its number
	n                 int
}

func (ns *numbering) add(name string) error {
	ns.n++
	first, dup := ns.seen[name]
	switch {
	case name == "":
		return fmt.Errorf(ns.noName, ns.n)
	case dup:
		return fmt.Errorf(ns.redefined, ns.n, name, first)
	}
	if ns.seen == nil {
		ns.seen = map[string]int{}
	}
	ns.seen[name] = ns.n
	return nil
}

// validateShape is step 3 of Validate for one group.
func (tg *TaskGroup) validateShape() []error {
	var errs []error
	if tg.Count < 0 {
		errs = append(errs, fmt.Errorf(FmtCountNegative, tg.Name))
	}
	tasks := 0
	for _, t := range tg.Tasks {
		if t != nil {
			tasks++
		}
	}
	if tasks == 0 {
		errs = append(errs, errors.New(MsgGroupNoTasks))
	}
	if err := tg.RestartPolicy.Validate(); err != nil {
		errs = append(errs, err.(interface{ Unwrap() []error }).Unwrap()...)
	}
	names := numbering{noName: FmtTaskNoName, redefined: FmtTaskRedefined}
	for _, t := range tg.Tasks {
		if t == nil {
			continue
		}
		if err := names.add(t.Name); err != nil {
			errs = append(errs, err)
		}
		if strings.Contains(t.Name, "/") {
			errs = append(errs, errors.New(MsgTaskNameSlash))
		}
		if t.Driver == "" {
			errs = append(errs, errors.New(MsgTaskNoDriver))
		}
	}
	return errs
}
