package jobspec

import (
	"strings"
	"testing"

	"github.com/shoenig/test/must"
)

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
