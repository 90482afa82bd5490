package jobspec

import (
	"errors"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/shoenig/test/must"
)

// Parse picks the format by extension, else by the first non-space byte.
func TestParseChoosesFormat(t *testing.T) {
	hclSrc := taskSrc()
	cases := []struct {
		name, filename, src string
		wantErr             string // "" = parses
	}{
		{"hcl by extension", "job.hcl", hclSrc, ""},
		{"nomad extension", "job.nomad", hclSrc, ""},
		{"nomad.hcl", "web.nomad.hcl", hclSrc, ""},
		{"json by extension", "job.json", minimalJSONJob, ""},
		{"extension case", "JOB.JSON", minimalJSONJob, ""},
		{"sniffed json", "job", " \n\t" + minimalJSONJob, ""},
		{"sniffed json after BOM", "-", "\xef\xbb\xbf" + minimalJSONJob, ""},
		{"sniffed hcl", "job.txt", hclSrc, ""},
		{"sniffed hcl after BOM", "", "\xef\xbb\xbf" + hclSrc, ""},
		{"extension wins over content (json)", "job.json", hclSrc,
			`job.json:1,1-2: Invalid JSON; invalid character 'j' looking for beginning of value`},
		{"extension wins over content (hcl)", "job.hcl", minimalJSONJob,
			`job.hcl:1,1-2: Argument or block definition required; An argument or block definition is required here.`},
		{"empty unknown file is HCL", "job", "", `job:1,1-1: Missing job block; A jobspec must contain exactly one job block.`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			job, _, err := Parse(tc.filename, []byte(tc.src))
			if tc.wantErr != "" {
				must.EqError(t, err, tc.wantErr)
				must.Nil(t, job)
				return
			}
			must.NoError(t, err)
			must.Eq(t, minimalJob(nil), job)
		})
	}
}

func TestErrorText(t *testing.T) {
	rng := hcl.Range{Filename: "f.hcl", Start: hcl.Pos{Line: 2, Column: 3, Byte: 10}, End: hcl.Pos{Line: 2, Column: 7, Byte: 14}}
	e := &Error{Filename: "f.hcl", Diagnostics: hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "No position", Detail: "d"},
		{Severity: hcl.DiagError, Summary: "No detail", Subject: &rng},
	}}
	must.EqError(t, e, "f.hcl: No position; d\nf.hcl:2,3-7: No detail")
	parts := e.Unwrap()
	must.SliceLen(t, 2, parts)
	must.EqError(t, parts[1], "f.hcl:2,3-7: No detail")

	// newError keeps errors only, sorted by position, unpositioned first.
	later := rng
	later.Start.Byte = 20
	err := newError("f.hcl", hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "B", Subject: &later},
		{Severity: hcl.DiagWarning, Summary: "W", Subject: &rng},
		{Severity: hcl.DiagError, Summary: "A", Subject: &rng},
		{Severity: hcl.DiagError, Summary: "Z"},
	})
	var perr *Error
	must.True(t, errors.As(err, &perr))
	var got []string
	for _, d := range perr.Diagnostics {
		got = append(got, d.Summary)
	}
	must.Eq(t, []string{"Z", "A", "B"}, got)
	must.NoError(t, newError("f.hcl", hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "W"}}))
}

func TestWarningString(t *testing.T) {
	w := Warning{Range: hcl.Range{Filename: "j.hcl", Start: hcl.Pos{Line: 3, Column: 5}, End: hcl.Pos{Line: 3, Column: 9}},
		Message: "m"}
	must.Eq(t, "j.hcl:3,5-9: m", w.String())
}
