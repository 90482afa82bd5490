package structs

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Payload requirements of a parameterized job (Nomad's parameterized
// block, `payload`).
const (
	DispatchPayloadOptional  = "optional"
	DispatchPayloadRequired  = "required"
	DispatchPayloadForbidden = "forbidden"
)

// MetaEnvPrefix starts the environment variable of each meta key.
const MetaEnvPrefix = "NOMAD_META_"

// ParameterizedJobConfig is a job's parameterized block: what a dispatch
// must or may give.
type ParameterizedJobConfig struct {
	// Payload is optional (default), required or forbidden.
	Payload      string   `json:"Payload"`
	MetaRequired []string `json:"MetaRequired"`
	MetaOptional []string `json:"MetaOptional"`
}

// IsParameterized reports whether the job is a parameterized template: it
// has a parameterized block and is not itself a dispatched child. Such a
// job places no allocation; its dispatches do.
func (j *Job) IsParameterized() bool {
	return j != nil && j.ParameterizedJob != nil && !j.Dispatched
}

// validateParameterized is step 3 of Validate.
func (j *Job) validateParameterized() []error {
	p := j.ParameterizedJob
	if p == nil {
		return nil
	}
	var errs []error
	if j.Type != JobTypeBatch && j.Type != JobTypeSysBatch {
		errs = append(errs, errors.New(`Parameterized job can only be used with "batch" or "sysbatch" scheduler`))
	}
	switch p.Payload {
	case "", DispatchPayloadOptional, DispatchPayloadRequired, DispatchPayloadForbidden:
	default:
		errs = append(errs, fmt.Errorf("Unknown payload requirement: %q", p.Payload))
	}
	return errs
}

// metaKeyUnsafe matches what Nomad turns into "_" in a meta key's
// environment name.
var metaKeyUnsafe = regexp.MustCompile(`[^A-Za-z0-9_.]`)

// MetaEnv is the task environment of a job's meta: for each key,
// NOMAD_META_<key> and NOMAD_META_<KEY> (upper-cased), with characters
// other than [A-Za-z0-9_.] replaced by "_", as Nomad's runtime
// environment does. Nil for no meta.
func MetaEnv(meta map[string]string) map[string]string {
	if len(meta) == 0 {
		return nil
	}
	env := make(map[string]string, 2*len(meta))
	keys := slices.Sorted(maps.Keys(meta)) // a fixed winner when keys collide
	for _, k := range keys {
		name := metaKeyUnsafe.ReplaceAllString(k, "_")
		env[MetaEnvPrefix+strings.ToUpper(name)] = meta[k]
	}
	for _, k := range keys {
		name := metaKeyUnsafe.ReplaceAllString(k, "_")
		env[MetaEnvPrefix+name] = meta[k]
	}
	return env
}

// GetMeta is the job's Meta; nil for a nil job.
func (j *Job) GetMeta() map[string]string {
	if j == nil {
		return nil
	}
	return j.Meta
}
