// Package jobspec turns a jobspec file, HCL or API JSON, into a domain job
// (*structs.Job, SPEC DATA-2..DATA-4), canonicalized.
//
// It is written from Nomad's public jobspec documentation; Nomad's own
// parser is not used.
//
// # Entry points
//
//   - Parse picks the format: *.json is JSON, *.hcl and *.nomad are HCL,
//     any other name is JSON when the first non-space byte is '{'.
//   - ParseHCL reads HCL (github.com/hashicorp/hcl/v2 native syntax).
//   - ParseJSON reads the API's JSON ({"Job": {...}} or a bare job),
//     decoded through github.com/hashicorp/nomad/api types; unknown fields
//     are ignored (DATA-1), durations are integer nanoseconds.
//
// Errors are *Error values listing every problem with its position, one per
// line: `job.hcl:12,5-10: Unsupported argument; An argument named "drivr"
// is not expected in task "web". Did you mean "driver"?`. Each is an HCL
// diagnostic (`<Summary>; <Detail>`), written where it is raised: none of
// these texts is fixed by SPEC.md; they are this package's own, modelled
// on the wording HCL uses for its decoder, and tests compare them
// verbatim.
//
// # The HCL subset
//
// One job block per file, UTF-8 encoded (a byte order mark is skipped).
// Durations are Go duration strings ("15s", "1h30m"); negative ones are
// refused.
//
//	job "<ID>" {                     # the label is the job ID
//	  name      = "<name>"           # default: the ID
//	  namespace = "<ns>"             # default "default" (DATA-2)
//	  type      = "service"          # service | batch | system | sysbatch
//
//	  meta {                         # job meta: NOMAD_META_<key> in tasks
//	    owner = "ops"                # any arguments; values become strings
//	  }
//
//	  parameterized {                # runs only when dispatched (batch or
//	    payload       = "optional"   # sysbatch); optional|required|forbidden
//	    meta_required = ["shard"]    # keys a dispatch must give
//	    meta_optional = ["out"]      # keys a dispatch may give
//	  }
//
//	  group "<name>" {
//	    count = 1                    # whole number >= 0, default 1
//
//	    restart {                    # absent fields: job type defaults (DATA-3)
//	      attempts = 2
//	      interval = "30m"
//	      delay    = "15s"
//	      mode     = "fail"          # checked at registration, not here
//	    }
//
//	    volume "<alias>" {           # any number, aliases unique
//	      type      = "csi"          # host | csi
//	      source    = "<volume id>"  # required
//	      read_only = false
//	    }
//
//	    task "<name>" {              # names unique in the group
//	      driver       = "docker"    # required
//	      leader       = false
//	      kill_timeout = "5s"        # default 5s (DATA-4)
//	      kill_signal  = "SIGINT"    # default SIGINT
//
//	      config {                   # free-form, see below
//	        image = "redis:7"
//	        args  = ["--port", 6379]
//	      }
//
//	      lifecycle {
//	        hook    = "prestart"     # required: prestart | poststart | poststop
//	        sidecar = false
//	      }
//
//	      schedule {                 # Nomad Enterprise task schedule
//	        cron {                   # validated at registration (SCHED-1/2)
//	          start    = "0 9 * * MON-FRI *"
//	          end      = "0 17"
//	          timezone = "Europe/Paris"
//	        }
//	      }
//
//	      volume_mount {             # any number
//	        volume      = "<alias>"  # required, must name a group volume
//	        destination = "/data"
//	        read_only   = false
//	      }
//	    }
//	  }
//	}
//
// config holds any arguments; nested blocks without labels become lists of
// objects under their type (the API's JSON shape). Values become what
// encoding/json would decode from the same JSON: string, bool, float64 for
// every number, []any, map[string]any, nil for null. Scalar arguments
// accept values HCL can convert (count = "3" is 3).
//
// Expressions are evaluated without variables or functions, with one
// exception for Nomad's runtime interpolation: a template part that is a
// bare reference, as in "${NOMAD_TASK_DIR}/run.sh" or "${node.unique.id}",
// is kept verbatim. variable, locals and dynamic blocks are errors.
//
// # What is checked and what is ignored
//
// The parser catches what a typo produces: unknown arguments and blocks
// (with a "Did you mean" suggestion), wrong label counts, duplicate
// singleton blocks (restart, config, lifecycle, schedule, cron), duplicate
// group, task and volume names, missing required arguments, values of the
// wrong type, unknown job types, volume types and lifecycle hooks, and a
// volume_mount naming an undeclared volume. A task-level restart block is
// an error, since restart policies are per group here.
//
// Restart policies and schedules are validated at registration
// (structs.RestartPolicy.Validate, schedule.Validate), where SPEC.md fixes
// the messages, so the parser accepts e.g. mode = "sometimes".
//
// These documented Nomad constructs are accepted with their content
// unchecked and reported as warnings, because allocsim does not model them:
//
//	job:          all_at_once consul_token datacenters node_pool priority
//	              region vault_token; affinity constraint consul migrate
//	              multiregion periodic reschedule spread ui update vault
//	group:        max_client_disconnect prevent_reschedule_on_lost
//	              shutdown_delay stop_after_client_disconnect; affinity
//	              constraint consul disconnect ephemeral_disk meta migrate
//	              network reschedule scaling service spread update vault
//	restart:      render_templates
//	volume:       access_mode attachment_mode per_alloc sticky; mount_options
//	task:         kind shutdown_delay user; action affinity artifact
//	              constraint consul csi_plugin dispatch_payload env identity
//	              logs meta resources scaling secret service template vault
//	volume_mount: propagation_mode selinux_label
//
// Nesting deeper than 100 levels (blocks, brackets, strings, templates),
// or more than 100 unary, conditional or subtraction operators in one
// element, is refused before parsing: HCL's recursive parser would
// overflow the stack, which no recover catches.
//
// JSON input is not checked beyond its types: like the HTTP API it accepts
// what decodes and leaves validation to registration.
package jobspec
