package structs

import (
	"errors"
	"fmt"

	"github.com/allocsim/allocsim/model/schedule"
)

// FmtCountNegative is the admission error of a group with a negative count.
const FmtCountNegative = "task group %q has a negative count"

// Validate is job admission at registration (API-4, DATA-3, SCHED-1): every
// failure, joined with errors.Join, each joined error exactly one message:
//
//  1. per task group, in order: a negative Count; then every failure of its
//     restart policy (RestartPolicy.Validate, DATA-3);
//  2. per task of the group with a Schedule (a nil Cron counts as set):
//     under profile ce, `task schedules requires Nomad Enterprise` once per
//     job, at the first scheduled task; under ent, each failing task's first
//     SCHED-2 error;
//  3. for a parameterized job (dispatch.go): a type other than batch or
//     sysbatch, then an unknown payload requirement.
//
// Nil groups and tasks are skipped; nil means admitted. The job's presence
// and ID are the caller's checks (API-4 messages). The agent and the
// simulated server both call this; neither restates it.
func (j *Job) Validate(profile schedule.Profile) error {
	var errs []error
	ceReported := false
	for _, tg := range j.TaskGroups {
		if tg == nil {
			continue
		}
		if tg.Count < 0 {
			errs = append(errs, fmt.Errorf(FmtCountNegative, tg.Name))
		}
		if err := tg.RestartPolicy.Validate(); err != nil {
			errs = append(errs, err.(interface{ Unwrap() []error }).Unwrap()...)
		}
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
