package syncing

import (
	"time"

	"github.com/allocsim/allocsim/linearizability"
	"github.com/allocsim/allocsim/properties/internal/prop"
)

// serverViewTimeout bounds porcupine's search per alloc (real time); the
// histories are nearly sequential (one UpdateAlloc and one pull in
// flight), so reaching it is reported, as Unknown, never passed.
const serverViewTimeout = 10 * time.Second

// VisualizationSuffix is the artifact an illegal server view is drawn into.
const VisualizationSuffix = ".server-view.porcupine.html"

// checkServerView checks, at the end of a run, that the server's view of
// each alloc's ClientStatus behaved as a register (SYNC-5.4 from the
// readers' side: no pull reply shows an older status after a newer one
// was acknowledged), built from the trace by
// linearizability.ServerViewFromTrace.
func checkServerView(v *prop.View) {
	parts := linearizability.ServerViewFromTrace(v.Records(), v.Scenario.Start)
	res, err := linearizability.CheckServerView(parts, linearizability.Options{Timeout: serverViewTimeout})
	switch {
	case err != nil:
		v.Violatef("", "", "server-view history", err.Error(), "a well-formed history (a bug of the suite)")
	case res.Verdict == linearizability.Unknown:
		v.Violatef(res.Key, "", "server view of the alloc's ClientStatus", res.String(), "Ok (a timeout is not a pass)")
	case res.Verdict == linearizability.Illegal:
		v.AttachVisualization(res, VisualizationSuffix)
		v.Violatef(res.Key, "", "server view of the alloc's ClientStatus", res.String(),
			"a register: every pull reply shows the newest acknowledged status or one in flight (porcupine's visualization is among the artifacts, *"+VisualizationSuffix+")")
	}
}
