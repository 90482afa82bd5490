package jobspec

import (
	"bytes"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/allocsim/allocsim/model/structs"
)

// Warning is a construct that was accepted but has no effect in allocsim
// (a documented Nomad block or argument outside the subset), with where it is.
type Warning struct {
	Range   hcl.Range
	Message string
}

// String is "<file>:<line>,<col>-<col>: <message>".
func (w Warning) String() string { return w.Range.String() + ": " + w.Message }

// Error reports every problem found in one jobspec, sorted by position.
// Its text has one line per problem:
// "<file>:<line>,<col>-<col>: <summary>; <detail>", or "<file>: <summary>;
// <detail>" for problems without a position.
type Error struct {
	Filename    string
	Diagnostics hcl.Diagnostics
}

func (e *Error) Error() string {
	lines := make([]string, 0, len(e.Diagnostics))
	for _, d := range e.Diagnostics {
		lines = append(lines, e.line(d))
	}
	return strings.Join(lines, "\n")
}

func (e *Error) line(d *hcl.Diagnostic) string {
	where := e.Filename
	if d.Subject != nil {
		where = d.Subject.String()
	}
	if d.Detail == "" {
		return where + ": " + d.Summary
	}
	return where + ": " + d.Summary + "; " + d.Detail
}

// Unwrap returns one error per problem, for errors.Is/As.
func (e *Error) Unwrap() []error {
	out := make([]error, 0, len(e.Diagnostics))
	for _, d := range e.Diagnostics {
		out = append(out, diagError{d: d, text: e.line(d)})
	}
	return out
}

// diagError is one diagnostic as an error, printed like a line of Error.
type diagError struct {
	d    *hcl.Diagnostic
	text string
}

func (d diagError) Error() string { return d.text }

// newError sorts diagnostics by position (those without one first) and
// wraps them; nil when there are no errors.
func newError(filename string, diags hcl.Diagnostics) error {
	if !diags.HasErrors() {
		return nil
	}
	errs := make(hcl.Diagnostics, 0, len(diags))
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			errs = append(errs, d)
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return offset(errs[i].Subject) < offset(errs[j].Subject) })
	return &Error{Filename: filename, Diagnostics: errs}
}

func offset(r *hcl.Range) int {
	if r == nil {
		return -1
	}
	return r.Start.Byte
}

// Parse reads a jobspec in either format: files named *.json are JSON,
// *.hcl and *.nomad are HCL, anything else is JSON when its first
// non-space byte is '{' and HCL otherwise. See ParseHCL and ParseJSON.
func Parse(filename string, src []byte) (*structs.Job, []Warning, error) {
	if isJSON(filename, src) {
		return ParseJSON(filename, src)
	}
	return ParseHCL(filename, src)
}

func isJSON(filename string, src []byte) bool {
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".json":
		return true
	case ".hcl", ".nomad":
		return false
	}
	trimmed := bytes.TrimLeft(trimBOM(src), " \t\r\n")
	return len(trimmed) > 0 && trimmed[0] == '{'
}

// trimBOM drops a leading UTF-8 byte order mark, which editors on some
// systems write and neither HCL nor encoding/json accepts.
func trimBOM(src []byte) []byte { return bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")) }
