package linearizability

import (
	"testing"

	"github.com/shoenig/test/must"
)

func TestVerdictString(t *testing.T) {
	for v, want := range map[Verdict]string{
		Unknown: "unknown", Ok: "ok", Illegal: "illegal", Verdict(7): "verdict(7)",
	} {
		must.EqOp(t, want, v.String())
	}
}

func TestVerdictZeroIsNotAPass(t *testing.T) {
	var v Verdict
	must.NotEqOp(t, Ok, v)
	must.EqOp(t, Unknown, v)
	must.NotEqOp(t, Ok, Result{}.Verdict)
}
