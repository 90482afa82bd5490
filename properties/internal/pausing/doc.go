// Package pausing holds the suite's pause properties (SPEC §4,
// PAUSE-1..PAUSE-11): the pause state machine through the API, the
// events of PAUSE-4, pause stops (PAUSE-5) and their accounting
// (PAUSE-6), overrides across a restore (PAUSE-10), signals (PAUSE-11).
package pausing
