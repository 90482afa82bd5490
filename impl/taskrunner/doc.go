// Package taskrunner is the reference task runner of SPEC §7 AR-5..AR-7:
// the run loop, the task hooks (validate, task_dir, volumes, pause) and the
// pause gate of SPEC §4.
package taskrunner
