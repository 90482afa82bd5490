package jobspec

import (
	"errors"
	"strings"
	"testing"

	"github.com/shoenig/test/must"
)

// Every HCL error, with its exact text and position. Several lines are
// several problems, reported together in source order.
func TestParseHCLErrors(t *testing.T) {
	task := `task "t" { driver = "d" }`
	cases := []struct {
		name string
		src  string
		want string
	}{
		// The file.
		{"empty file", "", `job.hcl:1,1-1: Missing job block; A jobspec must contain exactly one job block.`},
		{"syntax error", `job "j" {`,
			`job.hcl:1,9-10: Unclosed configuration block; There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.`},
		{"argument redefined", taskSrc(`driver = "x"`),
			`job.hcl:5,7-13: Attribute redefined; The argument "driver" was already set at job.hcl:4,7-13. Each argument may be set only once.`},
		{"two jobs", "job \"a\" {}\njob \"b\" {}\n",
			`job.hcl:2,1-8: Duplicate job block; A jobspec must contain exactly one job block; the first one is at job.hcl:1,1-8.`},
		{"top-level argument", "foo = 1\njob \"j\" {}\n",
			`job.hcl:1,1-4: Unsupported argument; An argument named "foo" is not expected in the file outside a job block.`},
		{"variable block", "variable \"x\" {}\njob \"j\" {}\n",
			`job.hcl:1,1-9: Unsupported block type; Blocks of type "variable" are not expected in the file outside a job block: variables and locals are not supported, write values literally.`},
		{"locals block", "locals {}\njob \"j\" {}\n",
			`job.hcl:1,1-7: Unsupported block type; Blocks of type "locals" are not expected in the file outside a job block: variables and locals are not supported, write values literally.`},

		{"invalid UTF-8", "job \"j\" {\n  name = \"a\xffb\"\n}\n",
			`job.hcl:2,12-13: Invalid character encoding; A jobspec must be UTF-8 encoded; byte 0xff is not valid here.`},

		// job
		{"job without label", "job {}\n", `job.hcl:1,1-4: Missing name for job; A job block must have exactly one label: its name.`},
		{"job with two labels", "job \"a\" \"b\" {}\n",
			`job.hcl:1,9-12: Extraneous label for job; A job block must have exactly one label: its name.`},
		{"job argument typo", jobSrc(`typ = "batch"`),
			`job.hcl:2,3-6: Unsupported argument; An argument named "typ" is not expected in job "j". Did you mean "type"?`},
		{"job type", jobSrc(`type = "servce"`),
			`job.hcl:2,10-18: Invalid value; The argument "type" must be one of "service", "batch", "system" or "sysbatch"; got "servce".`},
		{"group without label", jobSrc(`group {}`),
			`job.hcl:2,3-8: Missing name for group; A group block must have exactly one label: its name.`},
		{"duplicate group", jobSrc(`group "g" {}`, `group "g" {}`),
			`job.hcl:3,3-12: Duplicate group "g"; Names of group blocks must be unique in job "j"; the first "g" is at job.hcl:2,3-12.`},

		// group
		{"count fraction", groupSrc("count = 1.5", task),
			`job.hcl:3,13-16: Invalid value; The argument "count" must be a whole number; got 1.5.`},
		{"count negative", groupSrc("count = -1", task),
			`job.hcl:3,13-15: Invalid value; The argument "count" must not be negative; got -1.`},
		{"count string", groupSrc(`count = "x"`, task),
			`job.hcl:3,13-16: Incorrect attribute value type; Inappropriate value for argument "count": a number is required.`},
		{"count huge", groupSrc("count = 1e30", task),
			`job.hcl:3,13-17: Invalid value; The argument "count" is out of range; got 1e30.`},
		{"group block typo", groupSrc("restrat {}", task),
			`job.hcl:3,5-12: Unsupported block type; Blocks of type "restrat" are not expected in group "g". Did you mean "restart"?`},
		{"duplicate restart", groupSrc("restart {}", "restart {}", task),
			`job.hcl:4,5-12: Duplicate restart block; Only one restart block is allowed in group "g"; the first one is at job.hcl:3,5-12.`},
		{"restart label", groupSrc(`restart "x" {}`, task),
			`job.hcl:3,13-16: Extraneous label for restart; A restart block takes no labels.`},
		{"restart interval", groupSrc("restart {", `  interval = "5 minutes"`, "}", task),
			`job.hcl:4,18-29: Invalid duration; The argument "interval" must be a duration such as "30s" or "1h30m"; time: unknown unit " minutes" in duration "5 minutes".`},
		{"restart negative delay", groupSrc("restart {", `  delay = "-1s"`, "}", task),
			`job.hcl:4,15-20: Invalid value; The argument "delay" must not be negative; got "-1s".`},
		{"restart attempts type", groupSrc("restart {", `  attempts = [1]`, "}", task),
			`job.hcl:4,18-21: Incorrect attribute value type; Inappropriate value for argument "attempts": number required, but have tuple.`},
		{"restart typo", groupSrc("restart {", `  atempts = 1`, "}", task),
			`job.hcl:4,7-14: Unsupported argument; An argument named "atempts" is not expected in the restart block of group "g". Did you mean "attempts"?`},
		{"duplicate task", groupSrc(task, task),
			`job.hcl:4,5-13: Duplicate task "t"; Names of task blocks must be unique in group "g"; the first "t" is at job.hcl:3,5-13.`},
		{"task with two labels", groupSrc(`task "a" "b" { driver = "d" }`),
			`job.hcl:3,14-17: Extraneous label for task; A task block must have exactly one label: its name.`},

		// volume
		{"duplicate volume", groupSrc(`volume "v" { source = "a" }`, `volume "v" { source = "a" }`),
			`job.hcl:4,5-15: Duplicate volume "v"; Names of volume blocks must be unique in group "g"; the first "v" is at job.hcl:3,5-15.`},
		{"volume without label", groupSrc(`volume { source = "a" }`),
			`job.hcl:3,5-11: Missing name for volume; A volume block must have exactly one label: its name.`},
		{"volume type", groupSrc(`volume "v" {`, `  type = "nfs"`, `  source = "a"`, `}`),
			`job.hcl:4,14-19: Invalid value; The argument "type" must be one of "host" or "csi"; got "nfs".`},
		{"volume without source", groupSrc(`volume "v" {}`),
			`job.hcl:3,5-15: Missing required argument; The argument "source" is required in volume "v".`},
		{"volume with null source", groupSrc(`volume "v" { source = null }`),
			`job.hcl:3,5-15: Missing required argument; The argument "source" is required in volume "v".`},

		// task
		{"task without driver", groupSrc(`task "t" {}`),
			`job.hcl:3,5-13: Missing required argument; The argument "driver" is required in task "t".`},
		{"driver typo", groupSrc(`task "t" {`, `  drivr = "d"`, `}`),
			"job.hcl:3,5-13: Missing required argument; The argument \"driver\" is required in task \"t\".\n" +
				`job.hcl:4,7-12: Unsupported argument; An argument named "drivr" is not expected in task "t". Did you mean "driver"?`},
		{"driver as a block", groupSrc(`task "t" {`, `  driver {}`, `}`),
			"job.hcl:3,5-13: Missing required argument; The argument \"driver\" is required in task \"t\".\n" +
				`job.hcl:4,7-13: Unsupported block type; Blocks of type "driver" are not expected in task "t". Did you mean to define argument "driver"? If so, use the equals sign to assign it a value.`},
		{"lifecycle as an argument", taskSrc(`lifecycle = { hook = "prestart" }`),
			`job.hcl:5,7-16: Unsupported argument; An argument named "lifecycle" is not expected in task "t". Did you mean to define a block of type "lifecycle"?`},
		{"ignored block typo", taskSrc("resorces {}"),
			`job.hcl:5,7-15: Unsupported block type; Blocks of type "resorces" are not expected in task "t". Did you mean "resources"?`},
		{"unknown block, nothing close", taskSrc("frobnicate {}"),
			`job.hcl:5,7-17: Unsupported block type; Blocks of type "frobnicate" are not expected in task "t".`},
		{"task restart", taskSrc("restart {}"),
			`job.hcl:5,7-14: Unsupported block type; Blocks of type "restart" are not expected in task "t": a task-level restart policy is not modelled, set restart on the group.`},
		{"dynamic block", taskSrc(`dynamic "x" {}`),
			`job.hcl:5,7-14: Unsupported block type; Blocks of type "dynamic" are not expected in task "t": dynamic blocks are not supported, write each block out.`},
		{"kill_timeout without unit", taskSrc("kill_timeout = 5"),
			`job.hcl:5,22-23: Invalid duration; The argument "kill_timeout" must be a duration such as "30s" or "1h30m"; time: missing unit in duration "5".`},
		{"kill_signal type", taskSrc(`kill_signal = ["SIGTERM"]`),
			`job.hcl:5,21-32: Incorrect attribute value type; Inappropriate value for argument "kill_signal": string required, but have tuple.`},
		{"leader type", taskSrc(`leader = "yes"`),
			`job.hcl:5,16-21: Incorrect attribute value type; Inappropriate value for argument "leader": a bool is required.`},
		{"variable in an argument", taskSrc("kill_signal = sig"),
			`job.hcl:5,21-24: Variables not allowed; Variables may not be used here.`},

		// lifecycle
		{"lifecycle without hook", taskSrc("lifecycle {}"),
			`job.hcl:5,7-16: Missing required argument; The argument "hook" is required in the lifecycle block of task "t".`},
		{"lifecycle hook", taskSrc("lifecycle {", `  hook = "prestrat"`, "}"),
			`job.hcl:6,16-26: Invalid value; The argument "hook" must be one of "prestart", "poststart" or "poststop"; got "prestrat".`},
		{"lifecycle label", taskSrc(`lifecycle "x" { hook = "prestart" }`),
			`job.hcl:5,17-20: Extraneous label for lifecycle; A lifecycle block takes no labels.`},
		{"duplicate lifecycle", taskSrc(`lifecycle { hook = "prestart" }`, `lifecycle { hook = "poststop" }`),
			`job.hcl:6,7-16: Duplicate lifecycle block; Only one lifecycle block is allowed in task "t"; the first one is at job.hcl:5,7-16.`},

		// schedule
		{"duplicate schedule", taskSrc("schedule {}", "schedule {}"),
			`job.hcl:6,7-15: Duplicate schedule block; Only one schedule block is allowed in task "t"; the first one is at job.hcl:5,7-15.`},
		{"duplicate cron", taskSrc("schedule {", "  cron {}", "  cron {}", "}"),
			`job.hcl:7,9-13: Duplicate cron block; Only one cron block is allowed in the schedule block of task "t"; the first one is at job.hcl:6,9-13.`},
		{"cron typo", taskSrc("schedule {", "  cron {", `    timzone = "UTC"`, "  }", "}"),
			`job.hcl:7,11-18: Unsupported argument; An argument named "timzone" is not expected in the cron block of task "t". Did you mean "timezone"?`},
		{"schedule argument", taskSrc("schedule {", `  start = "0 9 * * * *"`, "}"),
			`job.hcl:6,9-14: Unsupported argument; An argument named "start" is not expected in the schedule block of task "t".`},

		// volume_mount
		{"volume_mount without volume", taskSrc("volume_mount {}"),
			`job.hcl:5,7-19: Missing required argument; The argument "volume" is required in a volume_mount block of task "t".`},
		{"undeclared volume", groupSrc(`volume "data" { source = "v" }`, `task "t" {`, `  driver = "d"`,
			`  volume_mount {`, `    volume = "dta"`, `  }`, `}`),
			`job.hcl:7,18-23: Reference to undeclared volume; The volume_mount in task "t" refers to volume "dta", but group "g" declares no such volume. Did you mean "data"?`},
		{"volume_mount label", groupSrc(`volume "data" { source = "v" }`, `task "t" {`, `  driver = "d"`,
			`  volume_mount "x" { volume = "data" }`, `}`),
			`job.hcl:6,20-23: Extraneous label for volume_mount; A volume_mount block takes no labels.`},

		// config
		{"duplicate config", taskSrc("config {}", "config {}"),
			`job.hcl:6,7-13: Duplicate config block; Only one config block is allowed in task "t"; the first one is at job.hcl:5,7-13.`},
		{"config block label", taskSrc("config {", `  mount "x" {}`, "}"),
			`job.hcl:6,15-18: Unsupported block labels; Blocks inside config take no labels; "mount" has 1.`},
		{"config key clash", taskSrc("config {", "  a = 1", "  a {}", "}"),
			`job.hcl:7,9-10: Duplicate config key; The key "a" is set both as an argument and as a block in task "t".`},
		{"config number too large", taskSrc("config {", "  n = 1e400", "}"),
			`job.hcl:6,13-18: Invalid value; The number at config.n in task "t" does not fit a 64-bit float.`},
		{"config nested number too large", taskSrc("config {", "  m {", "    l = [1, -1e400]", "  }", "}"),
			`job.hcl:7,15-26: Invalid value; The number at config.m.l[1] in task "t" does not fit a 64-bit float.`},
		{"config function call", taskSrc("config {", `  s = upper("x")`, "}"),
			`job.hcl:6,13-23: Function calls not allowed; Functions may not be called here.`},
		{"config variable", taskSrc("config {", "  s = foo", "}"),
			`job.hcl:6,13-16: Variables not allowed; Variables may not be used here.`},
		{"config null interpolation", taskSrc("config {", `  s = "a${null}"`, "}"),
			`job.hcl:6,17-21: Invalid template interpolation value; The expression result is null. Cannot include a null value in a string template.`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			job, warns, err := ParseHCL("job.hcl", []byte(tc.src))
			must.Nil(t, job)
			must.Nil(t, warns)
			must.Error(t, err)
			must.EqError(t, err, tc.want, must.Sprint(tc.src))
			var perr *Error
			must.True(t, errors.As(err, &perr))
			must.SliceLen(t, strings.Count(tc.want, "\n")+1, perr.Diagnostics)
		})
	}
}

// Every problem in a file is reported, in source order, whatever the
// nesting.
func TestParseHCLErrorsAllReported(t *testing.T) {
	src := groupSrc(
		`task "b" {`,
		`  driver = "d"`,
		`  kill_timeout = "soon"`,
		`  lifecycle { hook = "nope" }`,
		`}`,
		`count = -2`,
		`task "a" {}`,
		`bogus = 1`,
	)
	_, _, err := ParseHCL("job.hcl", []byte(src))
	var perr *Error
	must.True(t, errors.As(err, &perr))
	var lines []int
	for _, d := range perr.Diagnostics {
		lines = append(lines, d.Subject.Start.Line)
	}
	must.Eq(t, []int{5, 6, 8, 9, 10}, lines)
	// Each problem is also its own wrapped error.
	must.SliceLen(t, 5, perr.Unwrap())
	must.EqError(t, perr.Unwrap()[4],
		`job.hcl:10,5-10: Unsupported argument; An argument named "bogus" is not expected in group "g".`)
}

// Inputs that would overflow HCL's recursive parser are refused before
// parsing; the limits leave real jobspecs alone.
func TestParseHCLNestingLimits(t *testing.T) {
	job := func(expr string) string { return `job "j" { name = ` + expr + " }" } // expr starts at column 18
	cases := []struct {
		name string
		src  string
		want string // "" = parses
	}{
		{"100 levels", job(strings.Repeat("[", 99) + strings.Repeat("]", 99)), "Incorrect attribute value type"},
		{"101 levels", job(strings.Repeat("[", 100) + strings.Repeat("]", 100)),
			`job.hcl:1,117-118: Nesting too deep; Blocks, brackets, strings and templates may nest at most 100 levels deep.`},
		{"huge nesting", job(strings.Repeat("[", 200000)),
			`job.hcl:1,117-118: Nesting too deep; Blocks, brackets, strings and templates may nest at most 100 levels deep.`},
		{"nested templates", job(strings.Repeat(`"${`, 60) + "1" + strings.Repeat(`}"`, 60)),
			`job.hcl:1,166-168: Nesting too deep; Blocks, brackets, strings and templates may nest at most 100 levels deep.`},
		{"100 unary operators", job(strings.Repeat("-", 100) + "1"), ""},
		{"101 unary operators", job(strings.Repeat("-", 101) + "1"),
			`job.hcl:1,118-119: Expression too long; One list element, argument or attribute may hold at most 100 unary, conditional or subtraction operators.`},
		{"huge ternary chain", job(strings.Repeat("true ? 1 : ", 100000) + "2"),
			`job.hcl:1,1123-1124: Expression too long; One list element, argument or attribute may hold at most 100 unary, conditional or subtraction operators.`},
		{"operators per element", job("[" + strings.TrimSuffix(strings.Repeat("-1, ", 300), ", ") + "]"),
			"Incorrect attribute value type"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ParseHCL("job.hcl", []byte(tc.src))
			switch {
			case tc.want == "":
				must.NoError(t, err)
			case strings.HasPrefix(tc.want, "job.hcl"):
				must.EqError(t, err, tc.want)
			default: // parsed, failed later for an unrelated reason
				must.ErrorContains(t, err, tc.want)
			}
		})
	}
}
