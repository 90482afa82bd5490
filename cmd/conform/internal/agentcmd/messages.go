package agentcmd

// Messages of `conform agent`, in one place.
const (
	msgDevOnly       = "only dev mode exists: run conform agent -dev"
	fmtExtraArgs     = "unexpected argument %q: conform agent takes flags only"
	fmtBadProfile    = "invalid -profile %q: want ent or ce"
	fmtBadZone       = "invalid -local-zone %q: %v"
	fmtBadLogLevel   = "invalid -log-level %q: want debug, info, warn or error"
	msgStopRequested = "stop requested"
	fmtStopping      = "==> %s: stopping every allocation and shutting down\n"
	msgStopped       = "==> Stopped"
	// msgCaughtHangup is what a Nomad agent prints on SIGHUP.
	msgCaughtHangup = "==> Caught signal: hangup"
)

// bannerFormat is printed once the agent serves: address, node ID,
// profile, local zone, drivers, data dir, address again.
const bannerFormat = `==> conform dev agent started
    HTTP API:   %s
    Node ID:    %s
    Profile:    %s
    Local zone: %s
    Drivers:    %s
    Data dir:   %s
==> Serving. Try: NOMAD_ADDR=%s conform job run FILE
    Stop with Ctrl-C (SIGINT) or SIGTERM; a second one quits at once.
`
