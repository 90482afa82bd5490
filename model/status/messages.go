package status

// ClientDescription values of SPEC AR-8, verbatim.
const (
	DescriptionFailed   = "Failed tasks"
	DescriptionRunning  = "Tasks are running"
	DescriptionPending  = "No tasks have started"
	DescriptionComplete = "All tasks have completed"
)
