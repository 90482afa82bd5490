// Command detlint enforces SPEC DET-1 on the packages it is pointed at
// (make lint runs it on impl/ and sim/): no real clock (time.Now, Since,
// Until, Sleep, After, AfterFunc, NewTimer, NewTicker, Tick, time.Local, and
// github.com/benbjohnson/clock's New: components take an injected
// clock.Clock, and only the production adapter under cmd/, which is not
// linted, builds the real one), no package-level math/rand or math/rand/v2
// functions other than constructors, no go-metrics MeasureSince (it reads
// the wall clock), and no environment or host name reads. Test files are
// exempt. It resolves import names, so an aliased import is caught and a
// local variable called time or clock is not.
//
// Usage:
//
//	go run ./internal/detlint DIR...
//
// It prints one line per violation, file:line:col: message, and exits 1 if
// there is any.
package main
