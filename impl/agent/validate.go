package agent

import (
	"errors"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	multierror "github.com/hashicorp/go-multierror"
)

// ValidateJob is the agent's admission of a canonicalized job (API-4): a
// nil job is MsgJobMissing, else structs.Job.Validate (the rule lives once,
// in model/structs): every failure joined, one message each. The job's ID
// is checked before (MsgJobNoID), not here.
func ValidateJob(job *structs.Job, profile schedule.Profile) error {
	if job == nil {
		return errors.New(MsgJobMissing)
	}
	return job.Validate(profile)
}

// leaves flattens joined errors (errors.Join, go-multierror) into the
// single errors they hold, in order; nil gives none.
func leaves(err error) []error {
	if err == nil {
		return nil
	}
	var out []error
	var walk func(error)
	walk = func(e error) {
		switch x := e.(type) {
		case nil:
		case *multierror.Error:
			for _, c := range x.WrappedErrors() {
				walk(c)
			}
		case interface{ Unwrap() []error }:
			for _, c := range x.Unwrap() {
				walk(c)
			}
		default:
			out = append(out, e)
		}
	}
	walk(err)
	return out
}

// joined returns the first error in err's Unwrap chain that joins several
// (errors.Join, go-multierror), or nil.
func joined(err error) error {
	for e := err; e != nil; e = errors.Unwrap(e) {
		switch e.(type) {
		case *multierror.Error, interface{ Unwrap() []error }:
			return e
		}
	}
	return nil
}

// validationError is API-4's 500: a go-multierror list of every failure,
// one message per item (`1 error occurred:\n\t* <msg>\n\n`).
type validationError struct{ errs []error }

func (v *validationError) Error() string {
	return (&multierror.Error{Errors: v.errs}).Error()
}

// registerFailure is the error served for a failed registration: a
// multierror list of the joined failures if err holds some (validation),
// else err itself (500 with its message).
func registerFailure(err error) error {
	if j := joined(err); j != nil {
		if ls := leaves(j); len(ls) > 0 {
			return &validationError{errs: ls}
		}
	}
	return err
}
