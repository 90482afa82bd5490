package structs

import (
	"errors"
	"fmt"
	"time"
)

// Restart modes (DATA-3).
const (
	RestartPolicyModeDelay = "delay"
	RestartPolicyModeFail  = "fail"
)

// MinRestartInterval is the shortest valid restart interval (DATA-3).
const MinRestartInterval = 5 * time.Second

// RestartPolicy is DATA-3's group restart policy. A nil field means "absent"
// when decoding; WithDefaults fills absent fields by job type.
type RestartPolicy struct {
	Attempts *int           `json:"Attempts"`
	Interval *time.Duration `json:"Interval"`
	Delay    *time.Duration `json:"Delay"`
	Mode     *string        `json:"Mode"`
}

// DefaultRestartPolicy returns the complete default policy for a job type
// (DATA-3): service/system 2, 30m, 15s, fail; batch/sysbatch 3, 24h, 15s, fail.
func DefaultRestartPolicy(jobType string) *RestartPolicy {
	attempts, interval := 2, 30*time.Minute
	if jobType == JobTypeBatch || jobType == JobTypeSysBatch {
		attempts, interval = 3, 24*time.Hour
	}
	delay, mode := 15*time.Second, RestartPolicyModeFail
	return &RestartPolicy{Attempts: &attempts, Interval: &interval, Delay: &delay, Mode: &mode}
}

// NewRestartPolicy builds a complete policy from plain values.
func NewRestartPolicy(attempts int, interval, delay time.Duration, mode string) *RestartPolicy {
	return &RestartPolicy{Attempts: &attempts, Interval: &interval, Delay: &delay, Mode: &mode}
}

// WithDefaults returns a copy of p whose absent fields are the job type's
// defaults. A nil p gives the defaults.
func (p *RestartPolicy) WithDefaults(jobType string) *RestartPolicy {
	d := DefaultRestartPolicy(jobType)
	if p == nil {
		return d
	}
	out := p.Copy()
	if out.Attempts == nil {
		out.Attempts = d.Attempts
	}
	if out.Interval == nil {
		out.Interval = d.Interval
	}
	if out.Delay == nil {
		out.Delay = d.Delay
	}
	if out.Mode == nil {
		out.Mode = d.Mode
	}
	return out
}

// Copy returns a deep copy.
func (p *RestartPolicy) Copy() *RestartPolicy {
	if p == nil {
		return nil
	}
	out := &RestartPolicy{}
	if p.Attempts != nil {
		v := *p.Attempts
		out.Attempts = &v
	}
	if p.Interval != nil {
		v := *p.Interval
		out.Interval = &v
	}
	if p.Delay != nil {
		v := *p.Delay
		out.Delay = &v
	}
	if p.Mode != nil {
		v := *p.Mode
		out.Mode = &v
	}
	return out
}

// GetAttempts, GetInterval, GetDelay and GetMode read a field, zero if absent.
func (p *RestartPolicy) GetAttempts() int {
	if p == nil || p.Attempts == nil {
		return 0
	}
	return *p.Attempts
}

func (p *RestartPolicy) GetInterval() time.Duration {
	if p == nil || p.Interval == nil {
		return 0
	}
	return *p.Interval
}

func (p *RestartPolicy) GetDelay() time.Duration {
	if p == nil || p.Delay == nil {
		return 0
	}
	return *p.Delay
}

func (p *RestartPolicy) GetMode() string {
	if p == nil || p.Mode == nil {
		return ""
	}
	return *p.Mode
}

// Validate checks a complete policy (DATA-3) and reports every failure,
// joined with errors.Join in SPEC order; nil when valid.
func (p *RestartPolicy) Validate() error {
	var errs []error
	mode, attempts := p.GetMode(), p.GetAttempts()
	interval, delay := p.GetInterval(), p.GetDelay()
	switch mode {
	case RestartPolicyModeDelay, RestartPolicyModeFail:
	default:
		errs = append(errs, fmt.Errorf("Unsupported restart mode: %q", mode))
	}
	if attempts == 0 && mode != RestartPolicyModeFail {
		errs = append(errs, fmt.Errorf("Restart policy %q with %d attempts is ambiguous", mode, attempts))
	}
	if interval < MinRestartInterval {
		errs = append(errs, fmt.Errorf("Interval can not be less than %v (got %v)", MinRestartInterval, interval))
	}
	if time.Duration(attempts)*delay > interval {
		errs = append(errs, fmt.Errorf("Nomad can't restart the TaskGroup %d times in an interval of %v with a delay of %v", attempts, interval, delay))
	}
	return errors.Join(errs...)
}
