package jobspec

// Diagnostic texts. Each problem is an HCL diagnostic (Summary; Detail)
// whose printed form is "<file>:<line>,<col>-<col>: <Summary>; <Detail>".
// Format verbs are substituted where the diagnostic is made; tests compare
// the results verbatim. None of these texts is fixed by SPEC.md: they are
// this package's own, modelled on the wording HCL uses for its decoder.
const (
	// summaryUnsupportedArgument: an argument this subset does not know.
	// Detail: argument name, where ("task \"web\""), then an optional
	// detailDidYouMean.
	summaryUnsupportedArgument = "Unsupported argument"
	detailUnsupportedArgument  = "An argument named %q is not expected in %s."

	// summaryUnsupportedBlock: a block type this subset does not know.
	summaryUnsupportedBlock = "Unsupported block type"
	detailUnsupportedBlock  = "Blocks of type %q are not expected in %s."
	// detailUnsupportedFeature: a known Nomad feature this subset rejects
	// rather than ignores; the last verb is the reason.
	detailUnsupportedFeature = "Blocks of type %q are not expected in %s: %s."

	// detailDidYouMean is appended to a detail when a close name exists;
	// detailBlockNotArg / detailArgNotBlock when the name is known as the
	// other kind of construct.
	detailDidYouMean  = " Did you mean %q?"
	detailBlockNotArg = " Did you mean to define a block of type %q?"
	detailArgNotBlock = " Did you mean to define argument %q? If so, use the equals sign to assign it a value."

	// summaryMissingArgument: a required argument is absent (or null).
	summaryMissingArgument = "Missing required argument"
	detailMissingArgument  = "The argument %q is required in %s."

	// summaryMissingName / summaryExtraLabel: a block with the wrong number
	// of labels; %s is the block type.
	summaryMissingName = "Missing name for %s"
	summaryExtraLabel  = "Extraneous label for %s"
	detailOneLabel     = "A %s block must have exactly one label: its name."
	detailNoLabels     = "A %s block takes no labels."

	// summaryDuplicateBlock: a second singleton block (restart, lifecycle,
	// config, schedule, cron) or a second job.
	summaryDuplicateBlock = "Duplicate %s block"
	detailDuplicateBlock  = "Only one %s block is allowed in %s; the first one is at %s."
	detailDuplicateJob    = "A jobspec must contain exactly one job block; the first one is at %s."

	// summaryDuplicateName: two named blocks of one kind with one name.
	summaryDuplicateName = "Duplicate %s %q"
	detailDuplicateName  = "Names of %s blocks must be unique in %s; the first %q is at %s."

	// summaryMissingJob: no job block at all.
	summaryMissingJob = "Missing job block"
	detailMissingJob  = "A jobspec must contain exactly one job block."

	// detailNullInList: a null element of a list of strings.
	detailNullInList = "The list %q must not hold null."

	// summaryIncorrectType: a value that does not convert to the argument's
	// type; the last verb is the conversion error ("a number is required").
	summaryIncorrectType = "Incorrect attribute value type"
	detailIncorrectType  = "Inappropriate value for argument %q: %s."

	// summaryInvalidValue and its details: values of the right type that
	// this subset still refuses.
	summaryInvalidValue  = "Invalid value"
	detailNotWhole       = "The argument %q must be a whole number; got %s."
	detailOutOfRange     = "The argument %q is out of range; got %s."
	detailNegative       = "The argument %q must not be negative; got %s."
	detailNotOneOf       = "The argument %q must be one of %s; got %q."
	detailConfigNumber   = "The number at %s in %s does not fit a 64-bit float."
	detailConfigUnknown  = "The value at %s in %s cannot be represented: %s."
	summaryInvalidDur    = "Invalid duration"
	detailInvalidDur     = "The argument %q must be a duration such as \"30s\" or \"1h30m\"; %s."
	summaryUndeclaredVol = "Reference to undeclared volume"
	detailUndeclaredVol  = "The volume_mount in %s refers to volume %q, but %s declares no such volume."

	// summaryConfigKey / summaryConfigLabels: config blocks that do not map
	// onto a JSON object.
	summaryConfigKey    = "Duplicate config key"
	detailConfigKey     = "The key %q is set both as an argument and as a block in %s."
	summaryConfigLabels = "Unsupported block labels"
	detailConfigLabels  = "Blocks inside config take no labels; %q has %d."

	// summaryInvalidUTF8: an HCL file that is not UTF-8; %#x is the byte.
	summaryInvalidUTF8 = "Invalid character encoding"
	detailInvalidUTF8  = "A jobspec must be UTF-8 encoded; byte %#x is not valid here."

	// summaryTooDeep / summaryTooLong: inputs past the parser's recursion
	// limits (hcl_limits.go); %d is the limit.
	summaryTooDeep = "Nesting too deep"
	detailTooDeep  = "Blocks, brackets, strings and templates may nest at most %d levels deep."
	summaryTooLong = "Expression too long"
	detailTooLong  = "One list element, argument or attribute may hold at most %d unary, conditional or subtraction operators."

	// JSON input.
	summaryInvalidJSON = "Invalid JSON"
	detailNotObject    = `A JSON jobspec must be an object: {"Job": {...}} or a bare job.`
	summaryMissingJSON = "Missing job"
	detailNullJob      = `The "Job" field is null.`
	summaryInvalidJob  = "Invalid job"
	detailNullEntry    = "%s is null."
)

// Reasons for detailUnsupportedFeature.
const (
	reasonVariables   = "variables and locals are not supported, write values literally"
	reasonDynamic     = "dynamic blocks are not supported, write each block out"
	reasonTaskRestart = "a task-level restart policy is not modelled, set restart on the group"
)

// Warning text for an accepted construct that has no effect here. The verbs
// are "argument"/"block", its name and where it is.
const warningIgnored = "%s %q in %s is ignored: allocsim does not model it"
