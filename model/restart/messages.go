package restart

import "github.com/allocsim/allocsim/model/structs"

// Reasons of SPEC AR-7, verbatim. They become a Restarting or Not
// Restarting event's RestartReason.
const (
	ReasonNoRestartsAllowed     = "Policy allows no restarts"
	ReasonUnrecoverableError    = "Error was unrecoverable"
	ReasonWithinPolicy          = structs.ReasonWithinPolicy // "Restart within policy"
	ReasonDelay                 = "Exceeded allowed attempts, applying a delay"
	ReasonSuccessfulTermination = "Restart unnecessary as task terminated successfully"

	// ReasonExceededFailFormat is AR-7's fail-mode reason; format it with
	// FailReason.
	ReasonExceededFailFormat = `Exceeded allowed attempts %d in interval %v and mode is "fail"`
)

// JitterFraction is the share of the policy Delay that the random part of a
// within-policy restart delay can add (AR-7 (8)).
const JitterFraction = 0.25
