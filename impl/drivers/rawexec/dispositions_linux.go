//go:build linux

package rawexec

import (
	"os"
	"os/signal"
	"syscall"
)

// Signal dispositions of tasks.
//
// A task starts with every signal at its default disposition, whatever the
// driver's process was started with. exec(2) resets a caught signal to its
// default but keeps an ignored one ignored, and so does Go's os/exec: its
// child resets the signals the Go runtime handles and leaves the others
// alone. The runtime handles every signal except SIGHUP and SIGINT when
// the process started with them ignored (os/signal's doc), which is how
// `nohup` (SIGHUP) and a non-interactive shell's `cmd &` (SIGINT, raw_exec's
// default kill signal) start things; a signal.Ignore in the embedding
// program does the same to any signal. Left alone, such a disposition
// passes to every task: a task's own `trap ... HUP` then never runs, and a
// task ignoring SIGINT is killed only after its kill timeout.
//
// Go has no way to say "default dispositions in the child" (SysProcAttr
// has no equivalent of posix_spawnattr_setsigdefault), and a shell cannot
// help (POSIX sh may not un-ignore a signal ignored on entry). The two
// clean ways left:
//
//   - start every task through a re-exec of the driver's own binary, a
//     shim that resets the dispositions and execs the task: a hidden mode
//     in every program importing the driver (test binaries included), and
//     a second exec per start;
//   - adopt the signal in the driver's process: signal.Notify on a channel
//     nobody reads makes the Go runtime handle it, so the fork resets it to
//     its default in the task.
//
// The driver does the second, before each start (unignoreSignals): for each
// signal of adoptable that signal.Ignored reports ignored, it calls
// signal.Notify(discard, sig). For the driver's process nothing changes
// but bookkeeping: the signal is caught and dropped instead of ignored by
// the kernel (signal.Notify never blocks: discard holds one signal, the
// rest are dropped), so the process still does not die of it. A signal
// that is not ignored (at its default, or Notify'd by the program, as
// `conform agent` does with SIGHUP) is never touched, so a program that
// expects to die of SIGHUP still does. Running it before every start also
// catches a signal.Ignore made after the first start. Not covered: a
// signal the program ignores through signal.Reset after adopting (the
// runtime then restores SIG_IGN while signal.Ignored reports false), and a
// blocked signal mask, which os/exec passes on too (nohup blocks nothing).

// adoptable are the signals the driver un-ignores for its tasks: the
// asynchronous ones whose default ends a process, for which caught and
// dropped means the same as ignored to the driver's process. SIGCHLD (an
// ignored one changes how children are reaped), the stop signals and the
// synchronous ones are left out.
var adoptable = []os.Signal{
	syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGPIPE, syscall.SIGALRM,
}

// discard receives the adopted signals and is never read.
var discard = make(chan os.Signal, 1)

// unignoreSignals makes the Go runtime handle every adoptable signal the
// process ignores, so that a task started next gets its default
// disposition (see above). Safe for concurrent use.
func unignoreSignals() {
	for _, s := range adoptable {
		if signal.Ignored(s) {
			signal.Notify(discard, s)
		}
	}
}
