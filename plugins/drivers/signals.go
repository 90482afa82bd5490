package drivers

import (
	"fmt"
	"strings"
)

// SIGKILL is the signal of a force kill; it cannot be trapped or ignored.
const SIGKILL = 9

// signalNumbers are the Linux signal numbers, by canonical name.
var signalNumbers = map[string]int{
	"SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3, "SIGILL": 4, "SIGTRAP": 5,
	"SIGABRT": 6, "SIGIOT": 6, "SIGBUS": 7, "SIGFPE": 8, "SIGKILL": SIGKILL,
	"SIGUSR1": 10, "SIGSEGV": 11, "SIGUSR2": 12, "SIGPIPE": 13, "SIGALRM": 14,
	"SIGTERM": 15, "SIGSTKFLT": 16, "SIGCHLD": 17, "SIGCONT": 18, "SIGSTOP": 19,
	"SIGTSTP": 20, "SIGTTIN": 21, "SIGTTOU": 22, "SIGURG": 23, "SIGXCPU": 24,
	"SIGXFSZ": 25, "SIGVTALRM": 26, "SIGPROF": 27, "SIGWINCH": 28, "SIGIO": 29,
	"SIGPOLL": 29, "SIGPWR": 30, "SIGSYS": 31,
}

// signalsIgnoredByDefault are the signals whose default disposition does
// not terminate a process (ignore, stop or continue).
var signalsIgnoredByDefault = map[string]bool{
	"SIGCHLD": true, "SIGCONT": true, "SIGURG": true, "SIGWINCH": true,
	"SIGSTOP": true, "SIGTSTP": true, "SIGTTIN": true, "SIGTTOU": true,
}

// ParseSignal returns the canonical name ("SIGINT") and Linux number of a
// signal spelled "SIGINT", "sigint" or "INT".
func ParseSignal(name string) (string, int, error) {
	canon := strings.ToUpper(strings.TrimSpace(name))
	if !strings.HasPrefix(canon, "SIG") {
		canon = "SIG" + canon
	}
	n, ok := signalNumbers[canon]
	if !ok {
		return "", 0, fmt.Errorf("unknown signal %q", name)
	}
	return canon, n, nil
}

// TerminatesByDefault reports whether a signal, canonical name, ends a
// process that neither traps nor ignores it.
func TerminatesByDefault(canon string) bool {
	return !signalsIgnoredByDefault[canon]
}
