package structs

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Payload requirements of a parameterized job (Nomad's parameterized
// block, `payload`).
const (
	DispatchPayloadOptional  = "optional"
	DispatchPayloadRequired  = "required"
	DispatchPayloadForbidden = "forbidden"
)

// DispatchPayloadSizeLimit is the largest dispatch payload, in bytes
// (16 KiB, as `nomad job dispatch` documents).
const DispatchPayloadSizeLimit = 16 * 1024

// MetaEnvPrefix starts the environment variable of each meta key.
const MetaEnvPrefix = "NOMAD_META_"

// Messages of registration and dispatch of parameterized jobs. SPEC is
// silent; they follow Nomad's.
const (
	MsgParameterizedType        = `Parameterized job can only be used with "batch" or "sysbatch" scheduler`
	FmtPayloadRequirement       = "Unknown payload requirement: %q"
	FmtNotParameterized         = "Specified job %q is not a parameterized job"
	MsgPayloadForbidden         = "Payload is not permitted"
	MsgPayloadRequired          = "Payload is not provided but required by parameterized job"
	FmtPayloadTooLarge          = "Payload exceeds maximum size; %d > %d"
	FmtDispatchMissingMeta      = "Dispatch did not provide required meta keys: %v"
	FmtDispatchUnpermittedMetas = "Dispatch included unpermitted metadata keys: %v"
)

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
		errs = append(errs, errors.New(MsgParameterizedType))
	}
	switch p.Payload {
	case "", DispatchPayloadOptional, DispatchPayloadRequired, DispatchPayloadForbidden:
	default:
		errs = append(errs, fmt.Errorf(FmtPayloadRequirement, p.Payload))
	}
	return errs
}

// ValidateDispatch checks a dispatch of j with meta and payload, in
// order: j is a parameterized template; the payload against its
// requirement and size; every required meta key given; no key that is
// neither required nor optional (keys listed sorted). Each failure is
// one error.
func (j *Job) ValidateDispatch(meta map[string]string, payload []byte) error {
	if !j.IsParameterized() {
		return fmt.Errorf(FmtNotParameterized, j.ID)
	}
	p := j.ParameterizedJob
	switch {
	case len(payload) > DispatchPayloadSizeLimit:
		return fmt.Errorf(FmtPayloadTooLarge, len(payload), DispatchPayloadSizeLimit)
	case p.Payload == DispatchPayloadForbidden && len(payload) > 0:
		return errors.New(MsgPayloadForbidden)
	case p.Payload == DispatchPayloadRequired && len(payload) == 0:
		return errors.New(MsgPayloadRequired)
	}
	var missing, unpermitted []string
	for _, k := range p.MetaRequired {
		if _, ok := meta[k]; !ok {
			missing = append(missing, k)
		}
	}
	for k := range meta {
		if !slices.Contains(p.MetaRequired, k) && !slices.Contains(p.MetaOptional, k) {
			unpermitted = append(unpermitted, k)
		}
	}
	slices.Sort(missing)
	slices.Sort(unpermitted)
	switch {
	case len(missing) > 0:
		return fmt.Errorf(FmtDispatchMissingMeta, missing)
	case len(unpermitted) > 0:
		return fmt.Errorf(FmtDispatchUnpermittedMetas, unpermitted)
	}
	return nil
}

// DispatchedID is the ID of a job dispatched from parentID at instant at,
// suffix being 8 hex digits: `<parent>/dispatch-<unix seconds>-<suffix>`.
func DispatchedID(parentID string, at time.Time, suffix string) string {
	return fmt.Sprintf("%s/dispatch-%d-%s", parentID, at.Unix(), suffix)
}

// Dispatch is the child job of a dispatch of j (already validated): a
// copy with ID and Name id, ParentID j's ID, Dispatched set, and meta
// merged over j's Meta. j is not changed.
func (j *Job) Dispatch(id string, meta map[string]string) *Job {
	c := j.Copy()
	c.ID, c.Name, c.ParentID, c.Dispatched = id, id, j.ID, true
	if len(meta) > 0 {
		if c.Meta == nil {
			c.Meta = make(map[string]string, len(meta))
		}
		maps.Copy(c.Meta, meta)
	}
	return c
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
