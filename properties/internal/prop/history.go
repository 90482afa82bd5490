package prop

import (
	"bytes"

	"github.com/allocsim/allocsim/linearizability"
)

// AttachVisualization attaches porcupine's HTML visualization of res (an
// Illegal or Unknown history check) as suffix, if it has one (View.Attach).
func (v *View) AttachVisualization(res linearizability.Result, suffix string) {
	var html bytes.Buffer
	if res.CanVisualize() && res.VisualizeTo(&html) == nil {
		v.Attach(suffix, html.Bytes())
	}
}
