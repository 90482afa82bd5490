package schedule

import (
	"errors"
	"testing"
	"time"

	"github.com/shoenig/test/must"
)

var epoch = time.Unix(0, 0)

func cron(start, end string) *Schedule {
	return &Schedule{Cron: &Cron{Start: start, End: end, Timezone: "UTC"}}
}

// TestValidate is SCHED-2, rule by rule and in order, with the exact texts.
func TestValidate(t *testing.T) {
	cases := []struct {
		name    string
		s       *Schedule
		profile Profile
		want    string // "" = valid
	}{
		{"ce nil schedule is unscheduled", nil, ProfileCE, ""},
		{"ent nil schedule is unscheduled", nil, ProfileEnt, ""},
		{"ce rejects a valid schedule", cron("0 9 * * * *", "0 17"), ProfileCE, "task schedules requires Nomad Enterprise"},
		{"ce rejects a nil cron", &Schedule{}, ProfileCE, "task schedules requires Nomad Enterprise"},
		{"ce rejects an invalid schedule", cron("bad", "bad"), ProfileCE, "task schedules requires Nomad Enterprise"},
		{"ent nil cron", &Schedule{}, ProfileEnt, "must specify cron block"},
		{"ent valid", cron("0 9 * * * *", "0 17"), ProfileEnt, ""},
		{"leading zeros", cron("05 08 * * * *", "00 17"), ProfileEnt, ""},
		{"names and ranges", cron("0 9-17 * JAN-MAR MON-FRI 2024-2030", "30 17"), ProfileEnt, ""},
		{"no parsing: bad hour passes", cron("0 25 * * * *", "0 99"), ProfileEnt, ""},
		{"no zone loading", &Schedule{Cron: &Cron{Start: "0 9 * * * *", End: "0 17", Timezone: "Mars/Olympus"}}, ProfileEnt, ""},
		{"start 5 fields", cron("0 9 * * *", "0 17"), ProfileEnt, "cron.start must contain 6 fields"},
		{"start 7 fields", cron("0 0 9 * * * *", "0 17"), ProfileEnt, "cron.start must contain 6 fields"},
		{"start double space", cron("0  9 * * * *", "0 17"), ProfileEnt, "cron.start must contain 6 fields"},
		{"start tab", cron("0\t9 * * * *", "0 17"), ProfileEnt, "cron.start must contain 6 fields"},
		{"start macro", cron("@daily", "0 17"), ProfileEnt, "cron.start must contain 6 fields"},
		{"start empty", cron("", "0 17"), ProfileEnt, "cron.start must contain 6 fields"},
		{"end 1 field", cron("0 9 * * * *", "17"), ProfileEnt, "cron.end must contain 2 fields"},
		{"end 3 fields", cron("0 9 * * * *", "0 0 17"), ProfileEnt, "cron.end must contain 2 fields"},
		{"end empty", cron("0 9 * * * *", ""), ProfileEnt, "cron.end must contain 2 fields"},
		{"end tab", cron("0 9 * * * *", "0\t17"), ProfileEnt, "cron.end must contain 2 fields"},
		{"start slash", cron("*/5 9 * * * *", "0 17"), ProfileEnt, `cron.start must not contain "/,"`},
		{"start comma", cron("0 9,10 * * * *", "0 17"), ProfileEnt, `cron.start must not contain "/,"`},
		{"end slash", cron("0 9 * * * *", "*/5 17"), ProfileEnt, `cron.end must not contain "/,"`},
		{"end comma", cron("0 9 * * * *", "0 17,18"), ProfileEnt, `cron.end must not contain "/,"`},
		// First failure wins: counts before characters, start before end.
		{"start count before end count", cron("0 9", "0"), ProfileEnt, "cron.start must contain 6 fields"},
		{"end count before start chars", cron("0 9,10 * * * *", "0"), ProfileEnt, "cron.end must contain 2 fields"},
		{"start chars before end chars", cron("0 9,10 * * * *", "0 1,2"), ProfileEnt, `cron.start must not contain "/,"`},
		{"unknown profile", cron("0 9 * * * *", "0 17"), Profile("pro"), `unknown schedule profile "pro"`},
		{"empty profile", cron("0 9 * * * *", "0 17"), Profile(""), `unknown schedule profile ""`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := Validate(tc.s, tc.profile)
			if tc.want == "" {
				must.NoError(t, err)
				return
			}
			must.EqError(t, err, tc.want)
		})
	}
}

// TestValidateSentinels: Validate's errors are the exported sentinels, so
// callers can match them with errors.Is.
func TestValidateSentinels(t *testing.T) {
	must.True(t, errors.Is(Validate(&Schedule{}, ProfileCE), ErrEnterpriseOnly))
	must.True(t, errors.Is(Validate(&Schedule{}, ProfileEnt), ErrNoCron))
	must.True(t, errors.Is(Validate(cron("", "0 1"), ProfileEnt), ErrStartFields))
	must.True(t, errors.Is(Validate(cron("0 1 * * * *", ""), ProfileEnt), ErrEndFields))
	must.True(t, errors.Is(Validate(cron("0 1,2 * * * *", "0 1"), ProfileEnt), ErrStartChars))
	must.True(t, errors.Is(Validate(cron("0 1 * * * *", "0 1/2"), ProfileEnt), ErrEndChars))
}

// TestEvaluateErrors: SCHED-8's order and formats, and errors.Is on both
// the prefix and the cause.
func TestEvaluateErrors(t *testing.T) {
	_, err := Evaluate(nil, epoch, nil)
	must.ErrorIs(t, err, ErrNoCron)
	_, err = Evaluate(&Schedule{}, epoch, nil)
	must.ErrorIs(t, err, ErrNoCron)
	_, err = NextWindows(&Schedule{}, epoch, nil, 3)
	must.ErrorIs(t, err, ErrNoCron)

	_, err = Evaluate(&Schedule{Cron: &Cron{Start: "x", End: "y", Timezone: "Mars/Olympus"}}, epoch, nil)
	must.EqError(t, err, "invalid timezone in schedule: unknown time zone Mars/Olympus")
	must.ErrorIs(t, err, ErrInvalidTimezone)

	_, err = Evaluate(&Schedule{Cron: &Cron{Start: "0 9 * * * * * * *", End: "0 9 1 2 3 4 5 6", Timezone: "../etc/passwd"}}, epoch, nil)
	must.ErrorIs(t, err, ErrInvalidTimezone)

	_, err = Evaluate(cron("0 9 * * * 2100", "0 17"), epoch, nil)
	must.EqError(t, err, `invalid start time in schedule: "0 9 * * * 2100"; syntax error in year field: '2100'`)
	must.ErrorIs(t, err, ErrInvalidStart)

	_, err = Evaluate(cron("0 9 * * 8 *", "0 17"), epoch, nil)
	must.EqError(t, err, `invalid start time in schedule: "0 9 * * 8 *"; syntax error in day-of-week field: '8'`)

	_, err = Evaluate(cron("0 9 * * 01-08 *", "0 17"), epoch, nil)
	must.EqError(t, err, `invalid start time in schedule: "0 9 * * 01-08 *"; syntax error in day-of-week field: '01-08'`)

	_, err = Evaluate(cron("0 9 * * * *", `0 "17"`), epoch, nil)
	must.EqError(t, err, `invalid end time in schedule: "0 \"17\""; syntax error in hour field: '"17"'`)
	must.ErrorIs(t, err, ErrInvalidEnd)
}
