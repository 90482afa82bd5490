// Package telem holds the suite's hook telemetry properties (SPEC §2,
// TELEM-1..TELEM-5): one success-or-failed increment and one elapsed
// sample per hook execution, exact labels, elapsed equal to the virtual
// duration, nothing for skipped hooks or with the switch off.
package telem
